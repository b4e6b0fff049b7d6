import ConfigDomain
import ConfigPorts
import Foundation
import RemoteConfig
import TargetingFormat

/// The demo's targeting step: two users see different values, and a rollout widens from 10% to
/// 50% while every user already in keeps their variant.
///
/// It publishes payloads in the targeting dialect (`Modules/TargetingFormat/FORMAT.md`) to a
/// client, and changes the client's evaluation context as an app does when a user signs in.
struct TargetingStep {
    let say: Narrator

    static let button = ConfigKey("checkout_button", default: "blue")
    static let layout = ConfigKey("checkout_layout", default: "classic")
    /// How many simulated users the rollout is shown on.
    static let userCount = 10_000

    /// The published payload: a rule for Germany, and a 50/50 layout test at `coverage`.
    static func payload(coverage: Double) -> Data {
        Data(
            #"""
            {
              "targeting": {
                "checkout_button": { "default": "blue", "rules": [ { "id": "germany", "when": { "country": "DE" }, "value": "black" } ] },
                "checkout_layout": {
                  "default": "classic",
                  "rollouts": [ { "id": "layout-test", "seed": "layout-test", "coverage": \#(coverage),
                                  "variants": [ { "name": "compact", "value": "compact", "weight": 0.5 },
                                                { "name": "wide", "value": "wide", "weight": 0.5 } ] } ]
                }
              }
            }
            """#.utf8)
    }

    func run(number: Int) async throws(CLIFailure) {
        say.step(number, "Target users: a rule per country, and a rollout widened from 10% to 50%")
        let published = PublishedPayload(Self.payload(coverage: 0.1))
        let client: RemoteConfigClient
        do throws(ConfigError) {
            client = try RemoteConfigClient.builder(fetcher: published)
                .payloadFormat(TargetingJSONFormat())
                .context(EvaluationContext(targetingKey: "alice", attributes: ["country": "DE"]))
                .register(Self.button, Self.layout)
                .build()
            try await client.refresh()
        } catch {
            throw CLIFailure.problem("the targeting client failed: \(error)")
        }
        say.say("A payload in the targeting dialect is published: checkout_button is \"black\" in Germany, and")
        say.say("checkout_layout runs a 50/50 test (compact or wide) for 10% of users, bucketed by a hash of their id.")
        let alice = client.details(Self.button).decision?.match.map { "rule \"\($0.ruleID)\"" } ?? "default"
        say.detail("alice (country DE): checkout_button = \"\(client[Self.button])\"  (\(alice))")
        client.updateContext { $0 = EvaluationContext(targetingKey: "bob", attributes: ["country": "FR"]) }
        say.detail("bob   (country FR): checkout_button = \"\(client[Self.button])\"  (default: no rule matched)")

        let before = variants(client)
        published.publish(Self.payload(coverage: 0.5))
        do throws(ConfigError) {
            try await client.refresh()
        } catch {
            throw CLIFailure.problem("the widened rollout did not activate: \(error)")
        }
        let after = variants(client)
        let kept = before.filter { id, variant in after[id] == variant }.count
        say.say("\(Self.userCount) users sign in one after the other (each a context change; nothing is fetched):")
        say.detail(
            "at 10%: \(before.count) users in the test (\(count(before, "compact")) compact, \(count(before, "wide")) wide)")
        say.detail("at 50%: \(after.count) users in the test (\(count(after, "compact")) compact, \(count(after, "wide")) wide)")
        guard kept == before.count else {
            throw CLIFailure.problem("\(before.count - kept) users lost their variant when the rollout widened")
        }
        say.say(
            say.good("All \(before.count) users who were in at 10% are still in, with the same variant") + ": only the seed and")
        say.say("the id decide a bucket, and widening the coverage only extends each variant's range.")
    }

    /// Each simulated user's layout variant, for those in the test.
    private func variants(_ client: RemoteConfigClient) -> [String: String] {
        var variants: [String: String] = [:]
        for index in 0..<Self.userCount {
            let id = "user-\(index)"
            client.updateContext { $0 = EvaluationContext(targetingKey: id) }
            let value = client[Self.layout]
            if value != "classic" { variants[id] = value }
        }
        return variants
    }

    private func count(_ variants: [String: String], _ name: String) -> Int { variants.values.filter { $0 == name }.count }
}

/// The demo's "published" payload: what a server would serve, held in memory.
final class PublishedPayload: ConfigFetcher {
    private let bytes: Locked<Data>

    init(_ bytes: Data) { self.bytes = Locked(bytes) }

    /// Publishes new bytes; the next refresh fetches them.
    func publish(_ data: Data) { bytes.withLock { $0 = data } }

    func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchResult {
        .modified(FetchedPayload(bytes: bytes.withLock { $0 }, contentType: "application/json", source: "demo://published"))
    }
}
