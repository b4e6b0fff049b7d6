import ConfigDomain
import Foundation

/// A ``KeyMapping`` reversed against the keys an app registered: variable name → exactly one key.
///
/// ```swift
/// let index = VariableIndex(keys: [newCheckout.descriptor], prefix: "MYAPP_")
/// index.variable(forKey: "new_checkout")     // "MYAPP_NEW_CHECKOUT"
/// index.lookup("MYAPP_NEW_CHECKOUT")         // .key(descriptor of new_checkout)
/// ```
///
/// When two registered keys map to the same variable name, that name is a ``Collision``: it
/// overrides neither key, and ``problems`` says so. A key whose mapped name is empty cannot be
/// overridden and is reported too.
public struct VariableIndex: Sendable {
    /// The prefix every variable name starts with, for example `MYAPP_`.
    public let prefix: String
    /// The mapping from key names to variable names (without the prefix).
    public let mapping: KeyMapping
    /// Registered key names that map to the same variable name.
    public let collisions: [Collision]
    /// Configuration problems: collisions and keys that map to an empty name, as sentences.
    public let problems: [String]

    private let keysByVariable: [String: KeyDescriptor]
    private let variablesByKey: [String: String]
    private let collidingVariables: [String: [String]]
    /// Each unique variable name, sorted, and the same names case-folded for suggestions.
    private let candidateVariables: [String]
    private let foldedCandidates: [[UInt32]]
    private let foldedPrefix: [UInt32]

    /// Two or more registered keys whose names map to one variable name.
    public struct Collision: Sendable, Hashable {
        /// The variable name, prefix included.
        public var variable: String
        /// The registered key names, sorted.
        public var keys: [String]

        /// Creates a collision.
        public init(variable: String, keys: [String]) {
            self.variable = variable
            self.keys = keys
        }
    }

    /// What a variable name means for the registered keys.
    public enum Match: Sendable, Hashable {
        /// Exactly one registered key.
        case key(KeyDescriptor)
        /// Several registered keys map to this name: it overrides none of them.
        case ambiguous([String])
        /// No registered key maps to this name.
        case unknown
    }

    /// Indexes `keys` by their variable names. A key listed twice under one name counts once.
    public init(keys: [KeyDescriptor], prefix: String = "", mapping: KeyMapping = .standard) {
        self.prefix = prefix
        self.mapping = mapping
        var seen = Set<String>()
        var grouped: [String: [KeyDescriptor]] = [:]
        var problems: [String] = []
        for key in keys where seen.insert(key.name).inserted {
            let mapped = mapping(key.name)
            guard !mapped.isEmpty else {
                problems.append(
                    "key \"\(key.name)\" maps to an empty variable name, so it cannot be overridden by name; "
                        + "rename the key or supply a KeyMapping.custom")
                continue
            }
            grouped[prefix + mapped, default: []].append(key)
        }
        var unique: [String: KeyDescriptor] = [:]
        var byKey: [String: String] = [:]
        var colliding: [String: [String]] = [:]
        var collisions: [Collision] = []
        for (variable, group) in grouped.sorted(by: { $0.key < $1.key }) {
            if group.count == 1, let only = group.first {
                unique[variable] = only
                byKey[only.name] = variable
            } else {
                let names = group.map(\.name).sorted()
                colliding[variable] = names
                collisions.append(Collision(variable: variable, keys: names))
                let quoted = names.map { "\"\($0)\"" }.joined(separator: ", ")
                let verb = names.count == 2 ? "both map" : "all map"
                problems.append(
                    "keys \(quoted) \(verb) to \(variable), so it overrides none of them; "
                        + "rename a key or supply a KeyMapping.custom")
            }
        }
        self.keysByVariable = unique
        self.variablesByKey = byKey
        self.collidingVariables = colliding
        self.collisions = collisions
        self.problems = problems
        self.candidateVariables = unique.keys.sorted()
        self.foldedCandidates = candidateVariables.map(EditDistance.folded)
        self.foldedPrefix = EditDistance.folded(prefix)
    }

    /// What `variable` (prefix included) means: one key, several keys, or none.
    public func lookup(_ variable: String) -> Match {
        if let key = keysByVariable[variable] { return .key(key) }
        if let names = collidingVariables[variable] { return .ambiguous(names) }
        return .unknown
    }

    /// The one registered key `variable` (prefix included) overrides, or `nil` when none or several.
    public func key(forVariable variable: String) -> KeyDescriptor? {
        keysByVariable[variable]
    }

    /// The variable name (prefix included) that overrides `keyName`, or `nil` when the key is not
    /// registered, collides with another key or maps to an empty name.
    public func variable(forKey keyName: String) -> String? {
        variablesByKey[keyName]
    }

    /// Every variable name that overrides exactly one registered key, with that key, sorted by name.
    public var entries: [(variable: String, key: KeyDescriptor)] {
        keysByVariable.sorted { $0.key < $1.key }.map { (variable: $0.key, key: $0.value) }
    }

    /// The registered variable name closest to `variable`, when exactly one is close.
    ///
    /// Close means: the same letters ignoring case, or an edit distance (insertions, deletions,
    /// substitutions, ignoring case) of at most a quarter of the registered name's length, at
    /// least 1 and at most 3. When two names are equally close there is no suggestion. With a
    /// prefix, a name must also start with something within one edit of the prefix, so unrelated
    /// variables (`PATH`, `HOME`) cost one short comparison each.
    public func suggestion(for variable: String) -> (variable: String, key: KeyDescriptor)? {
        let target = EditDistance.folded(variable)
        var calculator = EditDistance()
        if !foldedPrefix.isEmpty, !startsLikePrefix(target, calculator: &calculator) { return nil }
        var best: [Int] = []
        var bestDistance = Int.max
        for index in foldedCandidates.indices {
            let length = foldedCandidates[index].count
            let limit = min(3, max(1, length / 4), bestDistance)
            guard abs(length - target.count) <= limit,
                let distance = calculator.between(target, foldedCandidates[index], limit: limit)
            else { continue }
            if distance < bestDistance {
                bestDistance = distance
                best = [index]
            } else {
                best.append(index)
            }
        }
        guard best.count == 1, let only = best.first, let key = keysByVariable[candidateVariables[only]] else { return nil }
        return (candidateVariables[only], key)
    }

    /// Whether `folded` begins with the prefix, or with text one edit away from it.
    private func startsLikePrefix(_ folded: [UInt32], calculator: inout EditDistance) -> Bool {
        if folded.starts(with: foldedPrefix) { return true }
        let shortest = max(0, foldedPrefix.count - 1)
        let longest = min(folded.count, foldedPrefix.count + 1)
        guard shortest <= longest else { return false }
        return (shortest...longest).contains { calculator.between(Array(folded[0..<$0]), foldedPrefix, limit: 1) != nil }
    }
}
