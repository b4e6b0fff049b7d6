import ConfigDomain
import Foundation

/// The enum the benchmarks read (a `String`-backed `RawRepresentable`).
package enum Mode: String, Sendable, CaseIterable {
    case fast, safe, auto
}

/// The struct the benchmarks read through `ConfigKey(decoding:default:)`.
package struct Banner: Codable, Sendable, Hashable {
    package var title: String
    package var color: String
    package var weight: Int

    package init(title: String, color: String, weight: Int) {
        self.title = title
        self.color = color
        self.weight = weight
    }
}

/// The synthetic payloads and keys every benchmark shares: `count` keys of five kinds, in turn
/// Bool, Int, Double, String and enum, named `k00000_b`, `k00001_i`, `k00002_d`, `k00003_s`,
/// `k00004_e`, …, plus a `banner` object and a few keys no client registers (`extra_0`, …).
///
/// `variant` changes every value (so two variants differ in every key) but not the shape.
/// The benchmarks and ReadProbe (the cold-start and refresh timers) share these.
package enum Workload {
    package static let unregisteredCount = 8

    /// `k` and the index in five digits (more when it needs them), then the kind's letter.
    ///
    /// Built from bytes: the names stand for an app's string literals, which cost a launch
    /// nothing, so making them should cost the cold-start measurement as little as it can.
    package static func name(_ index: Int) -> String {
        var digits = 5
        while digits < 19, index >= power(of: 10, digits) { digits += 1 }
        return String(unsafeUninitializedCapacity: digits + 3) { buffer in
            buffer[0] = UInt8(ascii: "k")
            var rest = index
            for position in stride(from: digits, through: 1, by: -1) {
                buffer[position] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            }
            buffer[digits + 1] = UInt8(ascii: "_")
            switch index % 5 {
            case 0: buffer[digits + 2] = UInt8(ascii: "b")
            case 1: buffer[digits + 2] = UInt8(ascii: "i")
            case 2: buffer[digits + 2] = UInt8(ascii: "d")
            case 3: buffer[digits + 2] = UInt8(ascii: "s")
            default: buffer[digits + 2] = UInt8(ascii: "e")
            }
            return digits + 3
        }
    }

    private static func power(of base: Int, _ exponent: Int) -> Int {
        (0..<exponent).reduce(1) { result, _ in result * base }
    }

    package static func boolValue(_ index: Int, _ variant: Int) -> Bool { (index / 5 + variant) % 2 == 0 }
    package static func intValue(_ index: Int, _ variant: Int) -> Int { index * 7 + variant }
    package static func doubleValue(_ index: Int, _ variant: Int) -> Double { Double(index) + 0.25 + Double(variant) }
    package static func stringValue(_ index: Int, _ variant: Int) -> String { "value-\(index)-v\(variant)" }
    package static func enumValue(_ index: Int, _ variant: Int) -> Mode { Mode.allCases[(index + variant) % 3] }
    package static func banner(_ variant: Int) -> Banner {
        Banner(title: "Welcome \(variant)", color: "blue", weight: 3 + variant)
    }

    /// The payload as a JSON object text (UTF-8 bytes).
    package static func json(count: Int, variant: Int) -> Data {
        var out = "{"
        out.reserveCapacity(count * 32)
        for index in 0..<count {
            out += "\"\(name(index))\":"
            switch index % 5 {
            case 0: out += boolValue(index, variant) ? "true" : "false"
            case 1: out += String(intValue(index, variant))
            case 2: out += String(doubleValue(index, variant))
            case 3: out += "\"\(stringValue(index, variant))\""
            default: out += "\"\(enumValue(index, variant).rawValue)\""
            }
            out += ","
        }
        let b = banner(variant)
        out += "\"banner\":{\"title\":\"\(b.title)\",\"color\":\"\(b.color)\",\"weight\":\(b.weight)}"
        for extra in 0..<unregisteredCount { out += ",\"extra_\(extra)\":\(extra % 2 == 0 ? "true" : "false")" }
        out += "}"
        return Data(out.utf8)
    }

    /// One key per payload entry (not the `extra_` ones), with or without one rule each (every value passes).
    package static func keys(count: Int, rules: Bool) -> [any ConfigKeyRepresentable] {
        var keys: [any ConfigKeyRepresentable] = []
        keys.reserveCapacity(count + 1)
        for index in 0..<count {
            let name = name(index)
            switch index % 5 {
            case 0:
                keys.append(ConfigKey(name, default: false, rules: rules ? [.oneOf([true, false])] : []))
            case 1:
                keys.append(ConfigKey(name, default: 0, rules: rules ? [.range(0...10_000_000)] : []))
            case 2:
                keys.append(ConfigKey(name, default: 0.0, rules: rules ? [.range(0...1e9)] : []))
            case 3:
                keys.append(ConfigKey(name, default: "", rules: rules ? [.length(1...64)] : []))
            default:
                keys.append(ConfigKey<Mode>(name, default: .auto, rules: rules ? [.oneOf(Mode.allCases)] : []))
            }
        }
        keys.append(ConfigKey(decoding: "banner", default: Banner(title: "", color: "", weight: 0)))
        return keys
    }
}
