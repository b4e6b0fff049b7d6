import ConfigDomain
import Foundation

/// One state of a ``ResolvedConfiguration``: look values up by name, raw and unconverted.
///
/// Every lookup through one instance sees the same state, never half of a change.
public struct ResolvedValues: Sendable {
    /// A value and whether it is secret.
    public struct Entry: Sendable, Hashable {
        /// The value as the configuration holds it.
        public var value: ConfigValue
        /// Whether the value is secret: show it to no one (logs, diagnostics).
        public var isSecret: Bool

        /// Creates an entry.
        public init(value: ConfigValue, isSecret: Bool) {
            self.value = value
            self.isSecret = isSecret
        }
    }

    /// Increases with every new state of the source.
    public let generation: UInt64
    private let lookup: @Sendable (String) -> Entry?

    /// Creates the values of one state: `lookup` answers for a name, or nil when nothing sets it.
    public init(generation: UInt64, lookup: @escaping @Sendable (String) -> Entry?) {
        self.generation = generation
        self.lookup = lookup
    }

    /// Values from a dictionary, for sources that hold one (and for tests).
    public init(generation: UInt64, values: [String: ConfigValue], secretNames: Set<String> = []) {
        self.init(generation: generation) { name in
            values[name].map { Entry(value: $0, isSecret: secretNames.contains(name)) }
        }
    }

    /// The entry for `name`, or nil when nothing sets it.
    public func entry(forName name: String) -> Entry? { lookup(name) }
}
