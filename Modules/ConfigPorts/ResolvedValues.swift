import ConfigDomain
import Foundation

/// One state of a ``ResolvedConfiguration``: values looked up by name, raw and unconverted.
///
/// Every lookup through one instance sees the same state, never half of a change. A client's
/// `ConfigView` is one; ``StaticResolvedValues`` holds a dictionary.
public protocol ResolvedValues: Sendable {
    /// Increases with every new state of the source.
    var generation: UInt64 { get }
    /// The entry for `name`, or nil when nothing sets it.
    func entry(forName name: String) -> ResolvedEntry?
}

/// A value found by name, and whether it is secret.
public struct ResolvedEntry: Sendable, Hashable {
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

/// Resolved values from a dictionary, for sources that hold one and for tests.
public struct StaticResolvedValues: ResolvedValues {
    /// Increases with every new state of the source.
    public let generation: UInt64
    private let values: [String: ConfigValue]
    private let secretNames: Set<String>

    /// Values by name; those in `secretNames` are secret.
    public init(generation: UInt64, values: [String: ConfigValue], secretNames: Set<String> = []) {
        self.generation = generation
        self.values = values
        self.secretNames = secretNames
    }

    /// The value of `name`, or nil.
    public func entry(forName name: String) -> ResolvedEntry? {
        values[name].map { ResolvedEntry(value: $0, isSecret: secretNames.contains(name)) }
    }
}
