import Foundation

/// Anything that stands for one ``ConfigKey``, so keys of different value types can be listed together.
///
/// `ConfigKey` conforms; a client's `register(a, b, c)` takes `any ConfigKeyRepresentable`.
public protocol ConfigKeyRepresentable: Sendable {
    /// The key's value type.
    associatedtype Value: Sendable
    /// The key itself.
    var configKey: ConfigKey<Value> { get }
}

extension ConfigKey: ConfigKeyRepresentable {
    /// The key itself.
    public var configKey: ConfigKey<Value> { self }
}
