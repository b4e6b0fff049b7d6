import ConfigDomain
import ConfigPorts
import Foundation

/// Overrides from environment variables: `MYAPP_NEW_CHECKOUT=false` overrides the key `new_checkout`.
///
/// ```swift
/// let source = EnvironmentOverrideSource(prefix: "MYAPP_")
/// ```
///
/// - The variable for a key is `prefix + mapping(key.name)` (see ``KeyMapping``), case-sensitive.
/// - Values are returned as text, exactly as set; the client coerces them to each key's type.
/// - A variable that starts with the prefix (in any letter case) but overrides no key is a problem,
///   with a "did you mean" hint when a registered name is close. With an empty prefix, only
///   variables close to a registered name are reported.
/// - Keys that map to one variable name are a problem; that variable overrides neither.
/// - Problems name variables, never their values.
public struct EnvironmentOverrideSource: OverrideSource {
    /// `environment`.
    public let name = "environment"
    /// The prefix of every variable this source reads, for example `MYAPP_`.
    public let prefix: String
    /// The mapping from key names to variable names (without the prefix).
    public let mapping: KeyMapping
    /// The variables this source reads.
    public let environment: [String: String]

    /// Creates a source over `environment` (by default the process environment).
    public init(
        prefix: String, environment: [String: String] = ProcessInfo.processInfo.environment,
        mapping: KeyMapping = .standard
    ) {
        self.prefix = prefix
        self.environment = environment
        self.mapping = mapping
    }

    /// The values of the registered keys' variables, and the problems found.
    public func overrides(for keys: [KeyDescriptor]) -> OverrideSnapshot {
        let index = VariableIndex(keys: keys, prefix: prefix, mapping: mapping)
        var values: [String: OverrideValue] = [:]
        var problems = index.problems
        for (variable, value) in environment.sorted(by: { $0.key < $1.key }) {
            switch index.lookup(variable) {
            case .key(let key): values[key.name] = OverrideValue(.text(value), origin: variable)
            case .ambiguous: continue  // Reported once, by the index.
            case .unknown: if let problem = index.unknownVariableProblem(variable) { problems.append(problem) }
            }
        }
        return OverrideSnapshot(values: values, problems: problems)
    }
}
