import ConfigDomain
import ConfigPorts
import Foundation
import RemoteConfig
import ServiceContextAdapter
import ServiceContextModule
import TestDoubles
import Testing

/// A `RemoteConfigClient` built with `.contextSource(ServiceContextSource())`: a plain read inside a
/// request's `ServiceContext` is evaluated for the request's user; outside, it serves the client's own context.
@Suite("A client reading through ServiceContextSource")
struct ClientContextSourceTests {
    static let checkout = ConfigKey("new_checkout", default: false)
    static let color = ConfigKey("button_color", default: "gray")

    /// `new_checkout` is true in DE and AT; `button_color` is the user's id for users whose id starts with "vip".
    struct CountryRules: TargetingRules {
        let key: String
        func evaluate(in context: EvaluationContext, explaining: Bool) -> TargetingDecision {
            let country = context.attributes["country"]?.stringValue ?? ""
            switch key {
            case "new_checkout" where ["DE", "AT"].contains(country):
                return TargetingDecision(value: true, match: TargetingMatch(ruleID: "dach", kind: .rule))
            case "button_color" where context.targetingKey?.hasPrefix("vip") == true:
                return TargetingDecision(
                    value: .string(context.targetingKey ?? ""), match: TargetingMatch(ruleID: "vip", kind: .rule))
            default:
                return .noMatch(attributesRead: ["country"])
            }
        }
    }

    /// Plain JSON values, with `CountryRules` for every key.
    struct CountryFormat: PayloadFormat {
        let name = "country"
        func decode(_ bytes: Data) throws(PayloadError) -> DecodedPayload {
            let values = try PlainJSONFormat().decode(bytes).values
            var rules: [String: any TargetingRules] = [:]
            for key in values.keys { rules[key] = CountryRules(key: key) }
            return DecodedPayload(values: values, rules: rules)
        }
    }

    /// A client of `{"new_checkout": false, "button_color": "blue"}` whose own context is a US user.
    static func client() async throws -> RemoteConfigClient {
        let client = try RemoteConfigClient.builder(
            fetcher: InMemoryFetcher(json: #"{"new_checkout": false, "button_color": "blue"}"#)
        )
        .clock(ManualClock())
        .payloadFormat(CountryFormat())
        .context(EvaluationContext(targetingKey: "app", attributes: ["country": "US"]))
        .contextSource(ServiceContextSource())
        .register(checkout, color)
        .build()
        try await client.refresh()
        return client
    }

    /// A service context carrying `user` in `country`.
    static func request(_ user: String, _ country: String) -> ServiceContext {
        var context = ServiceContext.topLevel
        context.evaluationContext = EvaluationContext(targetingKey: user, attributes: ["country": .string(country)])
        return context
    }

    @Test("outside a request, and in one without a user, reads serve the client's own context")
    func outsideARequest() async throws {
        let client = try await Self.client()
        #expect(client[Self.checkout] == false)
        #expect(client[Self.color] == "blue")
        ServiceContext.withValue(.topLevel) {
            #expect(client[Self.checkout] == false)
        }
    }

    @Test("inside a request, plain reads, snapshots and explain are for the request's user")
    func insideARequest() async throws {
        let client = try await Self.client()
        await ServiceContext.withValue(Self.request("vip-7", "DE")) {
            await Task.yield()
            #expect(client[Self.checkout] == true)
            #expect(client[Self.color] == "vip-7")
            let view = client.view()
            #expect(view[Self.checkout] == true && view[Self.color] == "vip-7")
            #expect(client.details(Self.checkout).decision?.match?.ruleID == "dach")
        }
        #expect(client[Self.checkout] == false, "the request's user does not leak into the client's context")
        #expect(client.context.targetingKey == "app")
    }

    @Test("concurrent requests, each fanning out to child tasks, each read for its own user")
    func concurrentRequests() async throws {
        let client = try await Self.client()
        let countries = ["DE", "AT", "US", "FR"]
        let requests = (0..<200).map { index in
            (user: index % 3 == 0 ? "vip-\(index)" : "user-\(index)", country: countries[index % countries.count])
        }
        let wrong = await withTaskGroup(of: Int.self) { group in
            for request in requests {
                group.addTask {
                    await ServiceContext.withValue(Self.request(request.user, request.country)) {
                        let expectedCheckout = ["DE", "AT"].contains(request.country)
                        let expectedColor = request.user.hasPrefix("vip") ? request.user : "blue"
                        return await withTaskGroup(of: Bool.self) { children in
                            for _ in 0..<3 {
                                children.addTask {
                                    await Task.yield()
                                    return client[Self.checkout] == expectedCheckout && client[Self.color] == expectedColor
                                }
                            }
                            return await children.reduce(0) { $0 + ($1 ? 0 : 1) }
                        }
                    }
                }
            }
            return await group.reduce(0, +)
        }
        #expect(wrong == 0)
        #expect(client[Self.checkout] == false)
    }
}
