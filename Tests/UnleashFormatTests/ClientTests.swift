import ConfigDomain
import ConfigPorts
import Foundation
import RemoteConfig
import TestDoubles
import Testing
import UnleashFormat

/// The Unleash dialect through a real client: an in-memory fetcher serves the payload, the
/// client evaluates it for its context at activation and on each context change.
@Suite("Unleash payloads in a client")
struct ClientTests {
    struct Theme: Codable, Equatable, Sendable {
        var color = "grey"
    }

    enum Flags {
        static let checkout = ConfigKey("new-checkout", default: false)
        static let variant = ConfigKey("new-checkout.variant", default: "none")
        static let theme = ConfigKey(decoding: "new-checkout.payload", default: Theme())
        static let beta = ConfigKey("beta", default: false)

        static var all: [any ConfigKeyRepresentable] { [checkout, variant, theme, beta] }
    }

    static let payload = """
        {"version": 2, "features": [
          {"name": "new-checkout", "enabled": true,
           "strategies": [{"id": "team", "name": "userWithId", "parameters": {"userIds": "u1, u3"},
                           "variants": [{"name": "blue", "weight": 1, "payload": {"type": "json", "value": "{\\"color\\": \\"blue\\"}"}}]}]},
          {"name": "beta", "enabled": true,
           "strategies": [{"name": "default", "constraints": [{"contextName": "age", "operator": "NUM_GTE", "value": "18"}]}]}
        ]}
        """

    static func client(_ json: String = payload, context: EvaluationContext) async throws -> (RemoteConfigClient, InMemoryFetcher)
    {
        let fetcher = InMemoryFetcher(json: json)
        let client = try RemoteConfigClient.builder(fetcher: fetcher)
            .clock(ManualClock())
            .payloadFormat(UnleashFormat())
            .context(context)
            .register(Flags.all)
            .build()
        _ = try await client.refresh()
        return (client, fetcher)
    }

    @Test("two contexts get different values from the same payload")
    func twoContexts() async throws {
        let (member, _) = try await Self.client(context: EvaluationContext(targetingKey: "u1"))
        let (other, _) = try await Self.client(context: EvaluationContext(targetingKey: "u2"))
        #expect(member[Flags.checkout] == true)
        #expect(member[Flags.variant] == "blue")
        #expect(member[Flags.theme] == Theme(color: "blue"))
        #expect(other[Flags.checkout] == false)
        #expect(other[Flags.variant] == "disabled")
        #expect(other[Flags.theme] == Theme(), "no payload: the key's default")
    }

    @Test("a context change re-evaluates without fetching, and names the keys that changed")
    func contextChange() async throws {
        let (client, fetcher) = try await Self.client(context: EvaluationContext(targetingKey: "u2"))
        let fetches = fetcher.fetchCount
        let changed = client.updateContext { $0 = EvaluationContext(targetingKey: "u3") }
        #expect(Set(changed) == ["new-checkout", "new-checkout.variant", "new-checkout.payload"])
        #expect(client[Flags.checkout] == true)
        #expect(fetcher.fetchCount == fetches)
        client.updateContext { $0.attributes["age"] = 21 }
        #expect(client[Flags.beta] == true)
    }

    @Test("explain names the strategy that decided and the attributes read")
    func explain() async throws {
        let (client, _) = try await Self.client(context: EvaluationContext(targetingKey: "u1"))
        let targeting = try #require(client.details(Flags.checkout).decision)
        #expect(targeting.match?.ruleID == "team")
        #expect(targeting.attributesRead == ["targetingKey"])
    }

    @Test("a feature that cannot be read keeps its last good value; the rest of the payload activates")
    func rejectedFeature() async throws {
        let (client, fetcher) = try await Self.client(context: EvaluationContext(targetingKey: "u1", attributes: ["age": 30]))
        #expect(client[Flags.checkout] == true)
        let broken = Self.payload.replacingOccurrences(
            of: "\"userWithId\"", with: "\"userWithId\", \"constraints\": [{\"contextName\": \"x\", \"operator\": \"LIKE\"}]"
        )
        .replacingOccurrences(of: "\"18\"", with: "\"40\"")
        fetcher.serve(json: broken)
        _ = try await client.refresh()
        #expect(client[Flags.checkout] == true, "last good value")
        #expect(client.details(Flags.checkout).rejected.first?.targeting?.kind == unknownOperator("LIKE"))
        #expect(client[Flags.beta] == false, "the other feature activated: 30 is not ≥ 40")
    }

    @Test("an attribute of the wrong type is reported as a rejection of that key only")
    func wrongType() async throws {
        let (client, _) = try await Self.client(
            context: EvaluationContext(targetingKey: "u1", attributes: ["age": ["not", "a", "number"]]))
        #expect(client[Flags.beta] == false)
        let rejection = try #require(client.details(Flags.beta).rejected.first?.targeting)
        #expect(rejection.kind == .attributeType(attribute: "age", expected: "a number", found: .array))
        #expect(client[Flags.checkout] == true)
        #expect(client.details(Flags.checkout).rejected.isEmpty)
    }
}
