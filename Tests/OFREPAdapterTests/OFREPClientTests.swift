import ConfigDomain
import ConfigPorts
import FlyingFox
import Foundation
import OFREPAdapter
import RemoteConfig
import TestDoubles
import TestSupport
import Testing

/// A client over an OFREP server: what reads, `details` and `explain` report for the server's decisions.
@Suite("OFREP client")
struct OFREPClientTests {
    private static let checkout = ConfigKey("checkout", default: false)
    private static let color = ConfigKey("color", default: "blue")
    private static let banner = ConfigKey("banner", default: "none")
    private static let beta = ConfigKey("beta", default: false)
    private static let who = ConfigKey("who", default: "nobody")

    private static let bulk = """
        {"flags":[
          {"key":"checkout","value":true,"reason":"TARGETING_MATCH","variant":"on"},
          {"key":"color","value":"green","reason":"SPLIT","variant":"treatment"},
          {"key":"banner","value":"Hi","reason":"STATIC"},
          {"key":"beta","reason":"DEFAULT","variant":"control"},
          {"key":"who","errorCode":"TARGETING_KEY_MISSING","errorDetails":"this flag needs a user"}
        ]}
        """

    @Test("reads serve the server's values; details report its reasons and variants; a per-flag error keeps the default")
    func details() async throws {
        let backend = OFREPTestBackend()
        backend.serve(Self.bulk)
        try await TestHTTPServer.with({ await backend.respond(to: $0) }) { server in
            let client = try RemoteConfigClient.builder(fetcher: try fetcher(for: server))
                .payloadFormat(OFREPFormat())
                .context(EvaluationContext(targetingKey: "u1"))
                .register(Self.checkout, Self.color, Self.banner, Self.beta, Self.who)
                .build()
            try await client.refresh()
            #expect(client[Self.checkout])
            #expect(client[Self.color] == "green")
            #expect(client[Self.banner] == "Hi")
            #expect(client[Self.beta] == false)  // no value from the server: the app's default
            #expect(client[Self.who] == "nobody")

            let checkout = client.details(Self.checkout)
            #expect(checkout.reason == .targetingMatch)
            #expect(checkout.variant == "on")
            let color = client.details(Self.color)
            #expect(color.reason == .split)
            #expect(color.variant == "treatment")
            #expect(client.details(Self.banner).reason == .staticValue)
            #expect(client.details(Self.beta).reason == .defaultValue)
            let who = client.details(Self.who)
            #expect(who.reason == .error)
            #expect(who.errorCode == .targetingKeyMissing, "the server's own code")
            #expect(who.errorMessage == "this flag needs a user", "the server's own words")
            let rejection = try #require(client.details(Self.who).rejected.first)
            #expect(
                rejection.targeting?.kind
                    == .remoteEvaluation(errorCode: "TARGETING_KEY_MISSING", details: "this flag needs a user"))
            #expect(rejection.reason.contains("set a targeting key"))
            await client.stop()
        }
    }
}
