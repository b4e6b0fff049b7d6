import ConfigDomain
import ConfigPorts
import Foundation
import RemoteConfig
import TargetingFormat
import TestDoubles

/// Keys the targeting tests share.
enum TargetedKeys {
    static let checkout = ConfigKey("new_checkout", default: false)
    static let button = ConfigKey("button_color", default: "grey")
    static let retries = ConfigKey("max_retries", default: 3, rules: [.range(0...10)])
    static let banner = ConfigKey("banner", default: "none")

    static var all: [any ConfigKeyRepresentable] { [checkout, button, retries, banner] }
}

/// A 36-character id (UUID-shaped) for user `index`, the same on every run.
func userID(_ index: Int) -> String {
    let high = UInt32(truncatingIfNeeded: index &* 2_654_435_761)
    let low = UInt64(truncatingIfNeeded: index) &* 0x9E37_79B9_7F4A_7C15
    let hex = String(low, radix: 16)
    let tail = String(repeating: "0", count: max(0, 12 - hex.count)) + hex.suffix(12)
    let head = String(high, radix: 16)
    return String(repeating: "0", count: 8 - head.count) + head + "-4a1c-4b2d-9e3f-" + tail
}

/// A client of `json` in the targeting dialect, refreshed once, with `observer` and `context`.
func targetingClient(
    _ json: String, context: EvaluationContext = .empty, observer: RecordingObserver = RecordingObserver(),
    keys: [any ConfigKeyRepresentable] = TargetedKeys.all
) async throws -> (RemoteConfigClient, InMemoryFetcher) {
    let fetcher = InMemoryFetcher(json: json)
    let client = try RemoteConfigClient.builder(fetcher: fetcher)
        .clock(ManualClock())
        .payloadFormat(TargetingJSONFormat())
        .context(context)
        .observer(observer)
        .register(keys)
        .build()
    _ = try await client.refresh()
    return (client, fetcher)
}

/// The decoded rules of `key` in a targeting-dialect document.
func rules(of key: String, in json: String) throws -> any TargetingRules {
    let decoded = try TargetingJSONFormat().decode(Data(json.utf8))
    guard let rules = decoded.rules[key] else { throw MissingRules(key: key, problems: decoded.ruleProblems[key] ?? []) }
    return rules
}

/// A key had no rules after decoding.
struct MissingRules: Error {
    let key: String
    let problems: [RuleProblem]
}
