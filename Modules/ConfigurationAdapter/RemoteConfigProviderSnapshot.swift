import ConfigDomain
import ConfigPorts
import Configuration
import Foundation

/// One state of a ``RemoteConfigProvider``: every read through it sees the same values.
@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
public struct RemoteConfigProviderSnapshot: Configuration.ConfigSnapshot {
    /// The name of the provider that made the snapshot.
    public let providerName: String
    /// The state it reads.
    let values: any ResolvedValues
    /// How it reads.
    let lookup: ValueLookup

    /// The value for `key` in this state, as `type`; throws ``ProviderValueError`` when it is of another type.
    public func value(forKey key: AbsoluteConfigKey, type: ConfigType) throws -> LookupResult {
        try lookup.lookup(key, as: type, in: values)
    }
}
