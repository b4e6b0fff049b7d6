import Foundation

/// Anything that stands for one ``ConfigKey``, so keys of different value types can be listed together.
///
/// `ConfigKey` conforms; a client's `register(a, b, c)` takes `any ConfigKeyRepresentable`.
public protocol ConfigKeyRepresentable: Sendable {
    /// The key's value type.
    associatedtype Value: Sendable
    /// The key itself.
    var configKey: ConfigKey<Value> { get }
    /// Whether, and in which builds, the app may set the key at run time; nil for a read-only key.
    var writeAccess: WriteAccess? { get }
}

extension ConfigKeyRepresentable {
    /// Read-only: keys are writable only when registered through ``ConfigKey/writable(inRelease:)``.
    public var writeAccess: WriteAccess? { nil }
}

extension ConfigKey: ConfigKeyRepresentable {
    /// The key itself.
    public var configKey: ConfigKey<Value> { self }
}
