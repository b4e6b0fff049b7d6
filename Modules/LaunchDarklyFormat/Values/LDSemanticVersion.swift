import Foundation

/// A version for the `semVer` operators, read as LaunchDarkly's Python SDK reads it: strict Semantic
/// Versioning 2.0.0 (the `semver` package: ASCII digits, no leading zeros, at most 255 characters), and when
/// that fails, again with `.0` inserted after the leading run of digits and dots, twice at most (`1.2` is
/// `1.2.0`, `1` is `1.0.0`, `1-beta` is `1.0.0-beta`). A `v` prefix makes no version.
///
/// Versions compare by major, minor and patch number (of any length), then by prerelease (none is
/// greater; numeric identifiers are lower than alphanumeric ones and compare by value, alphanumeric ones
/// by code points, a shorter list is lower when the rest is equal). Build metadata does not count.
struct LDSemanticVersion: Sendable, Hashable {
    /// The major, minor and patch numbers as their decimal digits, without leading zeros.
    let numbers: [String]
    /// The prerelease text, without the `-`; nil when there is none.
    let prerelease: String?

    /// The version `text` spells, or nil.
    init?(_ text: String) {
        if let version = Self.strict(text) {
            self = version
            return
        }
        let once = Self.insertingZero(text)
        if let version = Self.strict(once) {
            self = version
            return
        }
        guard let version = Self.strict(Self.insertingZero(once)) else { return nil }
        self = version
    }

    private init(numbers: [String], prerelease: String?) {
        self.numbers = numbers
        self.prerelease = prerelease
    }

    /// Negative, zero or positive as `self` is lower than, equal to or greater than `other`.
    func compare(_ other: LDSemanticVersion) -> Int {
        for (mine, theirs) in zip(numbers, other.numbers) {
            let order = Self.compareDigits(mine, theirs)
            if order != 0 { return order }
        }
        switch (prerelease, other.prerelease) {
        case (nil, nil): return 0
        case (nil, _?): return 1
        case (_?, nil): return -1
        case (let mine?, let theirs?):
            if mine.isExactly(theirs) { return 0 }
            let left = mine.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            let right = theirs.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            for (a, b) in zip(left, right) {
                let order = Self.compareIdentifiers(a, b)
                if order != 0 { return order }
            }
            return left.count < right.count ? -1 : (left.count > right.count ? 1 : 0)
        }
    }

    /// Two numbers written in decimal digits without leading zeros: the longer is greater, else the first digit that differs.
    private static func compareDigits(_ a: String, _ b: String) -> Int {
        if a.utf8.count != b.utf8.count { return a.utf8.count < b.utf8.count ? -1 : 1 }
        for (x, y) in zip(a.utf8, b.utf8) where x != y { return x < y ? -1 : 1 }
        return 0
    }

    /// Two prerelease identifiers as the `semver` package orders them: numeric ones by value and below
    /// alphanumeric ones, alphanumeric ones by code points.
    private static func compareIdentifiers(_ a: String, _ b: String) -> Int {
        let aNumeric = isDigits(a)
        let bNumeric = isDigits(b)
        switch (aNumeric, bNumeric) {
        case (true, false): return -1
        case (false, true): return 1
        case (true, true): return compareDigits(strippingZeros(a), strippingZeros(b))
        case (false, false):
            for (x, y) in zip(a.utf8, b.utf8) where x != y { return x < y ? -1 : 1 }
            return a.utf8.count < b.utf8.count ? -1 : (a.utf8.count > b.utf8.count ? 1 : 0)
        }
    }

    private static func isDigits(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
    }

    private static func strippingZeros(_ digits: String) -> String {
        let stripped = digits.drop { $0 == "0" }
        return stripped.isEmpty ? "0" : String(stripped)
    }

    /// `major.minor.patch[-prerelease][+build]`, strictly; nil otherwise.
    private static func strict(_ text: String) -> LDSemanticVersion? {
        // The package refuses more than 255 characters (code points).
        guard text.unicodeScalars.count <= 255 else { return nil }
        let bytes = Array(text.utf8)
        var index = 0
        var numbers: [String] = []
        for part in 0..<3 {
            if part > 0 {
                guard index < bytes.count, bytes[index] == UInt8(ascii: ".") else { return nil }
                index += 1
            }
            let start = index
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            let digits = bytes[start..<index]
            // `0|[1-9]\d*`
            guard !digits.isEmpty, digits.count == 1 || digits.first != UInt8(ascii: "0") else { return nil }
            numbers.append(String(decoding: digits, as: UTF8.self))
        }
        var prerelease: String?
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") {
            let start = index + 1
            index = start
            while index < bytes.count, bytes[index] != UInt8(ascii: "+") { index += 1 }
            let text = Array(bytes[start..<index])
            guard isPrerelease(text) else { return nil }
            prerelease = String(decoding: text, as: UTF8.self)
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "+") {
            let text = Array(bytes[(index + 1)...])
            guard isBuild(text) else { return nil }
            index = bytes.count
        }
        guard index == bytes.count else { return nil }
        return LDSemanticVersion(numbers: numbers, prerelease: prerelease)
    }

    /// Dot-separated identifiers, each `0`, a number without a leading zero, or `[0-9]*[A-Za-z-][0-9A-Za-z-]*`.
    private static func isPrerelease(_ bytes: [UInt8]) -> Bool {
        bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false).allSatisfy { identifier in
            guard !identifier.isEmpty, identifier.allSatisfy(isIdentifierByte) else { return false }
            if identifier.allSatisfy(isDigit) { return identifier.count == 1 || identifier.first != UInt8(ascii: "0") }
            return true
        }
    }

    /// Dot-separated non-empty identifiers of `[0-9A-Za-z-]`.
    private static func isBuild(_ bytes: [UInt8]) -> Bool {
        bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false).allSatisfy { identifier in
            !identifier.isEmpty && identifier.allSatisfy(isIdentifierByte)
        }
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    private static func isIdentifierByte(_ byte: UInt8) -> Bool {
        isDigit(byte) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == UInt8(ascii: "-")
    }

    /// The text with `.0` after its leading run of ASCII digits and dots, and without anything from its first
    /// line feed on (LaunchDarkly's `^([0-9.]*)(.*)`, whose `.` stops at a line feed).
    private static func insertingZero(_ text: String) -> String {
        let scalars = Array(text.unicodeScalars)
        var index = 0
        while index < scalars.count, scalars[index] == "." || ("0"..."9").contains(scalars[index]) { index += 1 }
        var rest = index
        while rest < scalars.count, scalars[rest] != "\n" { rest += 1 }
        var result = String.UnicodeScalarView()
        result.append(contentsOf: scalars[..<index])
        result.append(contentsOf: ".0".unicodeScalars)
        result.append(contentsOf: scalars[index..<rest])
        return String(result)
    }
}
