/// A strict Semantic Versioning 2.0.0 version, compared as the specification says.
///
/// `1.2.3`, `2.0.0-alpha.1` and `1.2.2+build.5` parse; `v2.0.0`, `1.2`, `01.2.3`, `1.2.3-01` and
/// `" 1.2.3"` do not, as in Rust's `semver` crate, which Unleash's engine uses. Numbers may be as
/// large as `UInt64` allows, numeric pre-release identifiers any length. Build metadata is kept but
/// ignored when comparing.
public struct SemanticVersion: Sendable, Comparable, CustomStringConvertible {
    /// One dot-separated pre-release identifier: numeric ones sort before alphanumeric ones.
    public enum Identifier: Sendable, Comparable {
        /// Digits without a leading zero, compared as a number of any size.
        case numeric(String)
        /// Letters, digits and hyphens, not all digits, compared by their ASCII bytes.
        case alphanumeric(String)

        /// Whether `lhs` ranks below `rhs`: numbers by size, others by bytes, numbers first.
        public static func < (lhs: Identifier, rhs: Identifier) -> Bool {
            switch (lhs, rhs) {
            case (.numeric(let a), .numeric(let b)):
                a.utf8.count == b.utf8.count ? a.utf8.lexicographicallyPrecedes(b.utf8) : a.utf8.count < b.utf8.count
            case (.alphanumeric(let a), .alphanumeric(let b)): a.utf8.lexicographicallyPrecedes(b.utf8)
            case (.numeric, .alphanumeric): true
            case (.alphanumeric, .numeric): false
            }
        }
    }

    /// The major version.
    public let major: UInt64
    /// The minor version.
    public let minor: UInt64
    /// The patch version.
    public let patch: UInt64
    /// The pre-release identifiers (`alpha`, `1` in `1.0.0-alpha.1`); empty for a release.
    public let preRelease: [Identifier]
    /// The text parsed, build metadata included.
    public let text: String

    /// Parses `text`, or returns nil when it is not a strict semantic version.
    public init?(_ text: String) {
        var rest = Substring(text)
        if let plus = rest.firstIndex(of: "+") {
            let build = rest[rest.index(after: plus)...]
            guard build.split(separator: ".", omittingEmptySubsequences: false).allSatisfy(Self.isIdentifier) else { return nil }
            rest = rest[..<plus]
        }
        var preRelease: [Identifier] = []
        if let dash = rest.firstIndex(of: "-") {
            for part in rest[rest.index(after: dash)...].split(separator: ".", omittingEmptySubsequences: false) {
                guard Self.isIdentifier(part) else { return nil }
                if part.allSatisfy(\.isASCIIDigit) {
                    guard part == "0" || part.first != "0" else { return nil }
                    preRelease.append(.numeric(String(part)))
                } else {
                    preRelease.append(.alphanumeric(String(part)))
                }
            }
            rest = rest[..<dash]
        }
        let core = rest.split(separator: ".", omittingEmptySubsequences: false)
        guard core.count == 3, let major = Self.number(core[0]), let minor = Self.number(core[1]),
            let patch = Self.number(core[2])
        else { return nil }
        self.major = major
        self.minor = minor
        self.patch = patch
        self.preRelease = preRelease
        self.text = text
    }

    /// A number without leading zeros that fits in a `UInt64`.
    private static func number(_ part: Substring) -> UInt64? {
        guard !part.isEmpty, part.allSatisfy(\.isASCIIDigit), part == "0" || part.first != "0" else { return nil }
        return UInt64(part)
    }

    /// A non-empty run of ASCII letters, digits and hyphens.
    private static func isIdentifier(_ part: Substring) -> Bool {
        !part.isEmpty && part.allSatisfy { $0.isASCIIDigit || ($0.isASCII && $0.isLetter) || $0 == "-" }
    }

    /// Whether `lhs` ranks below `rhs` (Semantic Versioning's precedence; build metadata ignored).
    public static func < (lhs: SemanticVersion, rhs: SemanticVersion) -> Bool {
        if (lhs.major, lhs.minor, lhs.patch) != (rhs.major, rhs.minor, rhs.patch) {
            return (lhs.major, lhs.minor, lhs.patch) < (rhs.major, rhs.minor, rhs.patch)
        }
        // A version without pre-release identifiers ranks above any with them.
        switch (lhs.preRelease.isEmpty, rhs.preRelease.isEmpty) {
        case (true, _): return false
        case (false, true): return true
        case (false, false): return lhs.preRelease.lexicographicallyPrecedes(rhs.preRelease)
        }
    }

    /// Equal ignoring build metadata.
    public static func == (lhs: SemanticVersion, rhs: SemanticVersion) -> Bool {
        (lhs.major, lhs.minor, lhs.patch) == (rhs.major, rhs.minor, rhs.patch) && lhs.preRelease == rhs.preRelease
    }

    /// The text parsed.
    public var description: String { text }
}

extension Character {
    /// Whether this is one of `0` … `9`.
    package var isASCIIDigit: Bool { isASCII && isNumber }
}
