import Foundation

/// One decoded payload: values by key plus its metadata. Immutable.
public struct ConfigSnapshot: Sendable, Hashable {
    /// The values by key name, as decoded by a ``PayloadFormat``.
    public var values: [String: ConfigValue]
    /// When, from where, and which version.
    public var metadata: SnapshotMetadata

    /// Creates a snapshot.
    public init(values: [String: ConfigValue], metadata: SnapshotMetadata) {
        self.values = values
        self.metadata = metadata
    }

    /// The value for `key`, if the payload has it.
    public subscript(key: String) -> ConfigValue? { values[key] }
}
