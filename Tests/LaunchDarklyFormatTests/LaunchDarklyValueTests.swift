import ConfigDomain
import Foundation
import Testing

@testable import LaunchDarklyFormat

/// The readers behind `before`/`after` and the `semVer` operators, against what LaunchDarkly's Python SDK
/// computes (`parse_time`, `parse_semver` and `VersionInfo.compare` of `launchdarkly-server-sdk` 9.18.4).
@Suite("LaunchDarkly format: times and versions as LaunchDarkly reads them")
struct LaunchDarklyValueTests {
    /// A timestamp and the milliseconds LaunchDarkly reads from it (nil: no moment), as `parse_time` answers.
    static let times: [(String, Double?)] = [
        ("2024-05-01T10:00:00Z", 1714557600000.0),
        ("2024-05-01T10:00:00z", 1714557600000.0),
        ("2024-05-01T12:00:00+02:00", 1714557600000.0),
        ("2024-05-01 10:00:00.5-01:30", 1714563000500.0),
        ("2024-05-01T10:00:00.1234567Z", 1714557600123.456),
        ("2024-05-01T10:00:00,25Z", 1714557600250.0),
        ("20240501T100000Z", 1714557600000.0),
        ("20240501T1000+0100", 1714554000000.0),
        ("2024-05-01T10Z", 1714557600000.0),
        ("2024-W18-3T10:00+01", 1714554000000.0),
        ("2024W183T10:00:00Z", 1714557600000.0),
        ("2024-W18T00:00Z", 1714348800000.0),
        ("2020-W53-7T00:00Z", 1609632000000.0),
        ("2021-W53-1T00:00Z", nil),
        ("2024-05-01é10:00:00Z", 1714557600000.0),
        ("2024-05-01T12:34:56:78Z", 1714566896780.0),
        ("2024-05-01T12,5Z", 1714564800500.0),
        ("2024-05-01T10:00:00.+01:00", 1714554000000.0),
        ("2020-01-01T00:00:00+00:00:00.5", 1577836800000.0),
        ("2020-01-01T00:00:00+00:00:01.5", 1577836798500.0),
        ("2020-01-01T00:00:00-23:59:59.999999", 1577923199999.999),
        ("2020-01-01T00:00:00.0005Z", 1577836800000.5),
        ("1970-01-01T00:00:00.000001Z", 0.001),
        ("1969-12-31T23:59:59.999999Z", -0.001),
        ("0001-01-01T00:00:00Z", -62135596800000.0),
        ("9999-12-31T23:59:59.999999Z", 253402300800000.0),
        ("2024-02-29T00:00:00Z", 1709164800000.0),
        ("2024-05-01T10:00:00 Z", 1714557600000.0),
        ("2024-05-01T10:00:00", nil),
        ("2024-05-01", nil),
        ("2024-05-01T24:00:00Z", nil),
        ("2023-02-29T00:00:00Z", nil),
        ("2024-05-01T10:00:00+24:00", nil),
        ("2024-05-01T10:00:00Z\n", nil),
        ("0000-01-01T00:00:00Z", nil),
        ("2024-13-01T00:00:00Z", nil),
        ("2024-05-01T10:00:00ZZ", nil),
        ("2024-05-01T10:0Z", nil),
        ("not a date", nil),
        ("", nil),
        ("2024-05-01T10:00:60Z", nil),
        ("2024-W54-1T00:00Z", nil),
        ("2024-W18-8T00:00Z", nil),
    ]

    @Test("timestamps: RFC 3339 and what Python's fromisoformat accepts beyond it, to the exact double")
    func times() {
        for (text, expected) in Self.times {
            #expect(LDTime.milliseconds(parsing: text) == expected, "\(text.debugDescription)")
        }
    }

    @Test("numbers are milliseconds as they are; other values are no moment")
    func numbers() {
        #expect(LDTime.milliseconds(.int(1_714_557_600_000)) == 1_714_557_600_000)
        #expect(LDTime.milliseconds(.double(0.5)) == 0.5)
        #expect(LDTime.milliseconds(.bool(true)) == nil)
        #expect(LDTime.milliseconds(.null) == nil)
    }

    /// Two versions and how the first compares with the second (nil: one is no version), as `semver` answers.
    static let versions: [(String, String, Int?)] = [
        ("1.2.3", "1.2.3", 0),
        ("1.2", "1.2.0", 0),
        ("1", "1.0.0", 0),
        ("1-beta", "1.0.0-beta", 0),
        ("1.2-beta", "1.2.0-beta", 0),
        ("1.2.3+a", "1.2.3+b", 0),
        ("1.2.3-alpha", "1.2.3-alpha.1", -1),
        ("1.2.3-alpha.1", "1.2.3-alpha.beta", -1),
        ("1.2.3-beta.2", "1.2.3-beta.11", -1),
        ("1.2.3-rc.1", "1.2.3", -1),
        ("10.0.0", "9.0.0", 1),
        ("99999999999999999999.0.0", "99999999999999999998.0.0", 1),
        ("1.2\nfoo", "1.2.0", 0),
        ("1.0.0-0A", "1.0.0-0a", -1),
        ("v1.2.3", "1.2.3", nil),
        ("01.2.3", "1.2.3", nil),
        ("1.2.3.4", "1.2.3", nil),
        ("1.2.3-01", "1.2.3", nil),
        ("", "1.0.0", nil),
        ("1.", "1.0.0", nil),
        ("1.2.3-a..b", "1.2.3", nil),
        ("١.٢.٣", "1.2.3", nil),
        ("1.2.3 ", "1.2.3", nil),
    ]

    @Test("versions: strict Semantic Versioning, with .0 added for missing parts, compared as the semver package does")
    func versions() {
        for (a, b, expected) in Self.versions {
            let order: Int? = LDSemanticVersion(a).flatMap { first in LDSemanticVersion(b).map { first.compare($0).signum() } }
            #expect(order == expected, "\(a.debugDescription) vs \(b.debugDescription)")
        }
    }
}
