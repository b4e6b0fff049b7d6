import ConfigDomain
import Foundation

/// Keeps the values an app writes to its writable keys (`client.set(key, value)`) across launches.
///
/// Without a store a client keeps written values in memory for the life of the process.
/// `DefaultsAdapter` has `UserDefaultsSettingsStore` (a suite name, for App Groups).
///
/// The contract:
/// - ``load(_:)`` answers on the calling thread and never throws (a client is built without
///   `await`): values it cannot read are reported in ``OverrideSnapshot/problems``. The client
///   converts and checks each value with its key's rules, as it does an override.
/// - ``save(_:for:)`` replaces or (with `nil`) removes one key's value, and refuses with a
///   `ConversionError` a value it cannot represent; the client then keeps the previous value.
/// - Safe to call from many threads at once.
public protocol SettingsStore: Sendable {
    /// A short name for provenance, for example `UserDefaults(group.com.example.app)`.
    var name: String { get }
    /// The stored values of the given keys, each with its origin, and any problems.
    func load(_ keys: [KeyDescriptor]) -> OverrideSnapshot
    /// Stores `value` as `key`'s value, or removes it when `value` is nil.
    func save(_ value: ConfigValue?, for key: KeyDescriptor) throws(ConversionError)
}
