import ConfigDomain

/// Maps variable names back to the registered keys they override, and reports keys that share a name.
///
/// ```swift
/// let index = VariableIndex(keys: [newCheckout.descriptor], prefix: "MYAPP_")
/// index.variable(forKey: "new_checkout")     // "MYAPP_NEW_CHECKOUT"
/// index.lookup("MYAPP_NEW_CHECKOUT")         // .key(descriptor of new_checkout)
/// ```
public struct VariableIndex: Sendable {
    /// The prefix every variable name starts with, for example `MYAPP_`.
    public let prefix: String
    /// The mapping from key names to variable names (without the prefix).
    public let mapping: KeyMapping
    /// Variable names that two or more registered keys map to; they override none of them.
    public let collisions: [Collision]
    /// Collisions and keys that map to an empty name, as sentences.
    public let problems: [String]
    private let keysByVariable: [String: KeyDescriptor]

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

    /// Indexes `keys` by their variable names; a key listed twice counts once.
    public init(keys: [KeyDescriptor], prefix: String = "", mapping: KeyMapping = .standard) {
        self.prefix = prefix
        self.mapping = mapping
        var problems: [String] = []
        var keysByName: [String: [KeyDescriptor]] = [:]
        var seen = Set<String>()
        for key in keys where seen.insert(key.name).inserted {
            let mapped = mapping(key.name)
            if mapped.isEmpty {
                problems.append(
                    "key \"\(key.name)\" maps to an empty variable name, so it cannot be overridden by name; "
                        + "rename the key or supply a KeyMapping.custom")
            } else {
                keysByName[prefix + mapped, default: []].append(key)
            }
        }
        var collisions: [Collision] = []
        for (variable, group) in keysByName.sorted(by: { $0.key < $1.key }) where group.count > 1 {
            let names = group.map(\.name).sorted()
            collisions.append(Collision(variable: variable, keys: names))
            problems.append(
                "keys \(names.map { "\"\($0)\"" }.joined(separator: ", ")) \(names.count == 2 ? "both" : "all") map to "
                    + "\(variable), so it overrides none of them; rename a key or supply a KeyMapping.custom")
        }
        self.keysByVariable = keysByName.compactMapValues { $0.count == 1 ? $0[0] : nil }
        self.collisions = collisions
        self.problems = problems
    }

    /// What `variable` (prefix included) means: one key, several keys, or none.
    public func lookup(_ variable: String) -> Match {
        if let key = keysByVariable[variable] { return .key(key) }
        if let collision = collisions.first(where: { $0.variable == variable }) { return .ambiguous(collision.keys) }
        return .unknown
    }

    /// The one registered key `variable` (prefix included) overrides, or `nil` when none or several.
    public func key(forVariable variable: String) -> KeyDescriptor? {
        keysByVariable[variable]
    }

    /// The variable name (prefix included) that overrides exactly the key `keyName`, if there is one.
    public func variable(forKey keyName: String) -> String? {
        keysByVariable.first { $0.value.name == keyName }?.key
    }

    /// Every variable name that overrides exactly one registered key, with that key, sorted by name.
    public var entries: [(variable: String, key: KeyDescriptor)] {
        keysByVariable.sorted { $0.key < $1.key }.map { (variable: $0.key, key: $0.value) }
    }

    /// The one registered variable name closest to `variable`, ignoring letter case, if it is close enough.
    ///
    /// Close enough means at most a quarter of the registered name's length in edits (at least 1,
    /// at most 3), with the start of `variable` within one edit of the prefix. A tie gives `nil`.
    public func suggestion(for variable: String) -> (variable: String, key: KeyDescriptor)? {
        let target = Self.folded(variable)
        let prefix = Self.folded(self.prefix)
        let startsLikePrefix = (max(0, prefix.count - 1)...(prefix.count + 1)).contains {
            Self.editDistance(Array(target.prefix($0)), prefix) <= 1
        }
        guard startsLikePrefix else { return nil }
        var closest: [(variable: String, key: KeyDescriptor)] = []
        var closestDistance = Int.max
        for (candidate, key) in entries {
            let name = Self.folded(candidate)
            let limit = min(3, max(1, name.count / 4), closestDistance)
            guard abs(name.count - target.count) <= limit else { continue }
            let distance = Self.editDistance(target, name)
            guard distance <= limit else { continue }
            if distance < closestDistance { closest = [] }
            closestDistance = distance
            closest.append((candidate, key))
        }
        return closest.count == 1 ? closest[0] : nil
    }

    /// The problem to report for a variable that overrides no key, or `nil` when it is not worth reporting.
    ///
    /// A variable that starts with a non-empty prefix (in any letter case) is always reported;
    /// any other only when a registered name is close to it.
    func unknownVariableProblem(_ variable: String) -> String? {
        let hint = suggestion(for: variable).map { Self.hint(wrote: variable, meant: $0.variable, key: $0.key.name) }
        let hasPrefix = !prefix.isEmpty && variable.uppercased().hasPrefix(prefix.uppercased())
        guard hasPrefix || hint != nil else { return nil }
        return "\(variable) is set but overrides no registered key" + (hint ?? "")
    }

    /// `; did you mean X (key "x")?`, noting when only the letter case differs.
    static func hint(wrote: String, meant: String, key: String) -> String {
        let caseNote = wrote.uppercased() == meant.uppercased() ? " Names are case-sensitive." : ""
        return "; did you mean \(meant) (key \"\(key)\")?" + caseNote
    }

    private static func folded(_ name: String) -> [Unicode.Scalar] {
        Array(name.uppercased().unicodeScalars)
    }

    /// The Levenshtein distance: how many insertions, deletions and substitutions turn `a` into `b`.
    private static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                current.append(min(previous[j] + (x == y ? 0 : 1), previous[j + 1] + 1, current[j] + 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
