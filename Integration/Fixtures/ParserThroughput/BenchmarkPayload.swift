import Foundation

/// A realistic remote-configuration payload of `keyCount` top-level keys, the same bytes on every run.
///
/// The mix, by key index modulo 10: Booleans (2), integers (2), doubles (1), strings with
/// some Unicode and escapes (2), small arrays (1), small objects (1), and nulls or URLs (1).
enum BenchmarkPayload {
    static func make(keyCount: Int) -> Data {
        var random = SplitMix(seed: 0x5EED)
        var text = "{\n"
        for index in 0..<keyCount {
            let name = "\(names[index % names.count])_\(index)"
            text += "  \"\(name)\": \(value(index: index, random: &random))"
            text += index == keyCount - 1 ? "\n" : ",\n"
        }
        text += "}\n"
        return Data(text.utf8)
    }

    private static let names = [
        "new_checkout", "max_retries", "banner_title", "rollout", "welcome_message", "feature.search.v2",
        "api_base_url", "timeout_seconds", "experiment_variant", "limits",
    ]

    private static let strings = [
        "Welcome back!", "Grüße aus Köln", "日本語のテキスト", "emoji 🎉 party", "line one\\nline two",
        "a \\\"quoted\\\" word", "tab\\tseparated", "caf\\u00e9 au lait", "smile \\ud83d\\ude00", "plain ascii text value",
    ]

    private static func value(index: Int, random: inout SplitMix) -> String {
        switch index % 10 {
        case 0, 1: return random.next() % 2 == 0 ? "true" : "false"
        case 2: return String(Int64(random.next() % 10_000))
        case 3: return String(Int64(bitPattern: random.next()) / 1_000)
        case 4: return ["0.25", "1234.5678", "1e-5", "-3.5e10", "0.1", "99.99"][Int(random.next() % 6)]
        case 5, 6: return "\"" + strings[Int(random.next() % UInt64(strings.count))] + "\""
        case 7: return "[1, 2, 3, \"four\", 5.5, true]"
        case 8:
            return "{\"enabled\": true, \"rollout\": 0.5, \"variant\": \"b\", \"limits\": [10, 20, 30], \"owner\": null}"
        default: return random.next() % 2 == 0 ? "null" : "\"https://config.example.com/v1/items?id=\(index)\""
        }
    }
}

/// A small deterministic pseudo-random generator (SplitMix64).
struct SplitMix {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
