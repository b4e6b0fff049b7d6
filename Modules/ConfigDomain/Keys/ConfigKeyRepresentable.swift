import Foundation

/// Anything that stands for one ``ConfigKey``, so keys of different value types can be listed together.
///
/// `ConfigKey` conforms; `client.register(a, b, c)` takes `any ConfigKeyRepresentable`.
public protocol ConfigKeyRepresentable: Sendable {
    /// The key's value type.
    associatedtype Value: Sendable
    /// The key itself.
    var configKey: ConfigKey<Value> { get }
    /// The key with its value type erased, as a client registers it.
    ///
    /// The default takes it from ``configKey``; you need not implement it.
    var anyConfigKey: AnyConfigKey { get }
}

extension ConfigKeyRepresentable {
    /// The key with its value type erased, taken from ``configKey``.
    public var anyConfigKey: AnyConfigKey { configKey.anyConfigKey }
}

extension ConfigKey: ConfigKeyRepresentable {
    /// The key itself.
    public var configKey: ConfigKey<Value> { self }

    /// The key with its value type erased. Reading it copies one reference, not the key: a client
    /// registering a thousand keys of many types does no work that depends on their types.
    public var anyConfigKey: AnyConfigKey { AnyConfigKey(erased) }
}
