import ConfigDomain
import Foundation
import RemoteConfig

/// A property that reads a typed key from a client: the one given, or the process default.
///
/// ```swift
/// struct CheckoutScreen {
///     @RemoteValue(Flags.newCheckout) var newCheckout          // RemoteConfigClient.processDefault
///     @RemoteValue(Flags.maxRetries, client: client) var retries
/// }
/// for await retries in checkout.$retries { … }                 // the key's value now, then each change
/// ```
///
/// A read is the client's synchronous read. With no client given and none installed as
/// `RemoteConfigClient.processDefault`, it returns the key's default.
@propertyWrapper
public struct RemoteValue<Value: Sendable>: Sendable {
    /// The key this property reads.
    public let key: ConfigKey<Value>
    /// The client given, or nil to read the process default.
    public let client: RemoteConfigClient?

    /// Reads `key` from `client`, or from `RemoteConfigClient.processDefault` when `client` is nil.
    public init(_ key: ConfigKey<Value>, client: RemoteConfigClient? = nil) {
        self.key = key
        self.client = client
    }

    /// The key's current value.
    public var wrappedValue: Value {
        guard let client = client ?? RemoteConfigClient.processDefault else { return key.defaultValue }
        return client[key]
    }

    /// The key's value now, then its value after each change (`client.watch(key)`); with no
    /// client, the default once.
    public var projectedValue: AsyncStream<Value> {
        guard let client = client ?? RemoteConfigClient.processDefault else {
            return AsyncStream { continuation in
                continuation.yield(key.defaultValue)
                continuation.finish()
            }
        }
        return client.watch(key)
    }
}
