import ConfigDomain
import ConfigPorts
import Foundation
import TestDoubles
import Testing

@testable import RemoteConfig

/// A refresh whose new payload has no value a registered key accepts fails, though the payload is held.
@Suite("A payload whose every value is rejected")
struct RejectedPayloadTests {
    private let rejectedEverywhere = #"{"new_checkout": "yes", "max_retries": 99, "ratio": "half", "title": ""}"#

    @Test("refresh throws the first rejection, keeps the last good values, and holds the payload for a 304")
    func refreshFails() async throws {
        let fetcher = ScriptedFetcher()
        fetcher.enqueue(.modifiedJSON(payload(retries: 7), etag: "\"v1\""))
        fetcher.enqueue(.modifiedJSON(rejectedEverywhere, etag: "\"v2\""))
        fetcher.enqueue(.notModified(Validators(etag: "\"v2\"")))
        let cache = InMemoryCache()
        let client = try RemoteConfigBuilder.testing(fetcher: fetcher, clock: ManualClock(now: epoch), cache: cache).build()
        try await client.refresh()

        await #expect {
            try await client.refresh(force: true)
        } throws: { error in
            guard case .rejected(let rejection) = error as? ConfigError else { return false }
            return rejection.key == "new_checkout" && rejection.value == "\"yes\""
        }
        #expect(client[Keys.retries] == 7)
        #expect(client.status.lastError.map { if case .rejected = $0 { true } else { false } } == true)
        #expect(cache.snapshot("default")?.metadata.validators.etag == "\"v2\"", "the payload is stored")

        #expect(try await client.refresh(force: true) == .unchanged, "the next fetch of it is a 304")
        #expect(fetcher.requests.last?.validators.etag == "\"v2\"")
    }

    @Test("a payload with one accepted value is an update, whatever else it rejects")
    func partialRejectionUpdates() async throws {
        let fetcher = ScriptedFetcher()
        fetcher.enqueue(.modifiedJSON(#"{"max_retries": 99, "title": "Hi"}"#, etag: nil))
        let client = try RemoteConfigBuilder.testing(fetcher: fetcher, clock: ManualClock(now: epoch)).build()
        #expect(try await client.refresh() == .updated(changedKeys: ["title"]))
    }

    @Test("a payload that offers the registered keys nothing is an update with no changed keys, not a failure")
    func unrelatedPayload() async throws {
        let fetcher = ScriptedFetcher()
        fetcher.enqueue(.modifiedJSON(#"{"something_else": 1}"#, etag: nil))
        let client = try RemoteConfigBuilder.testing(fetcher: fetcher, clock: ManualClock(now: epoch)).build()
        #expect(try await client.refresh() == .updated(changedKeys: []))
    }

    @Test("under manual activation the fetch fails the same way, and the payload still waits")
    func manualActivation() async throws {
        let fetcher = ScriptedFetcher()
        fetcher.enqueue(.modifiedJSON(rejectedEverywhere, etag: nil))
        let client = try RemoteConfigBuilder.testing(fetcher: fetcher, clock: ManualClock(now: epoch))
            .activation(.manual).build()
        await #expect(throws: ConfigError.self) { try await client.refresh() }
        #expect(client.status.pendingActivation)
    }

    @Test("a payload that does not decode fails the refresh with an error naming where it came from")
    func payloadErrorNamesItsSource() async throws {
        let fetcher = ScriptedFetcher(source: "https://example.com/config.json")
        fetcher.enqueue(.modifiedJSON(#"{"max_retries": 5,}"#, etag: nil))
        let client = try RemoteConfigBuilder.testing(fetcher: fetcher, clock: ManualClock(now: epoch)).build()
        await #expect {
            try await client.refresh()
        } throws: { error in
            guard case .payload(let payload) = error as? ConfigError else { return false }
            return payload.source == "https://example.com/config.json"
                && "\(payload)".hasPrefix("invalid json payload from https://example.com/config.json at byte 17")
        }
    }

}
