import ConfigDomain
import ConfigPorts
import Foundation
import SSEAdapter
import Testing

@Suite("ReconnectPolicy and SignalMapping")
struct PolicyAndMappingTests {
    @Test("waits grow exponentially to the maximum, with full jitter")
    func exponentialWithFullJitter() {
        let policy = ReconnectPolicy(initial: 1, multiplier: 2, maximum: 10)
        #expect((1...5).map { policy.delay(afterFailures: $0, serverRetry: nil, random: 1) } == [1, 2, 4, 8, 10])
        #expect(policy.delay(afterFailures: 3, serverRetry: nil, random: 0.5) == 2)
        #expect(policy.delay(afterFailures: 3, serverRetry: nil, random: 0) == 0)
        #expect(policy.delay(afterFailures: 0, serverRetry: nil, random: 1) == 0)
    }

    @Test("the server's retry time is the base, unless the policy ignores it")
    func serverRetry() {
        #expect(ReconnectPolicy(maximum: 60).delay(afterFailures: 2, serverRetry: 5, random: 1) == 10)
        #expect(ReconnectPolicy(initial: 1, honorsServerRetry: false).delay(afterFailures: 1, serverRetry: 5, random: 1) == 1)
    }

    @Test("the waits are a BackoffPolicy: the initialiser fills it, and its jitter switch applies")
    func backoffPolicy() {
        var policy = ReconnectPolicy(initial: 3, multiplier: 4, maximum: 50)
        #expect(policy.backoff == BackoffPolicy(initial: 3, multiplier: 4, maximum: 50))
        policy.backoff.jitter = false
        #expect(policy.delay(afterFailures: 2, serverRetry: nil, random: 0) == 12)
    }

    @Test("a multiplier below 1 counts as 1, and a negative server retry waits nothing")
    func unvalidatedSettings() {
        #expect(ReconnectPolicy(initial: 4, multiplier: 0.5).delay(afterFailures: 3, serverRetry: nil, random: 1) == 4)
        #expect(ReconnectPolicy().delay(afterFailures: 1, serverRetry: -5, random: 1) == 0)
    }

    @Test("the version mapping reads the data as the version; empty data means changed")
    func versionMapping() {
        let mapping = SignalMapping.version()
        #expect(mapping.signal(for: ServerSentEvent(data: " \"abc\"\n"), source: "s") == .changed(version: "\"abc\""))
        #expect(mapping.signal(for: ServerSentEvent(data: ""), source: "s") == .changed(version: nil))
        #expect(mapping.signal(for: ServerSentEvent(type: "ping", data: "x"), source: "s") == nil)
    }

    @Test("the payload mapping carries the data as bytes and the event ID as the ETag")
    func payloadMapping() {
        let signal = SignalMapping.payload().signal(
            for: ServerSentEvent(data: #"{"a":1}"#, lastEventID: "\"v2\""), source: "sse x")
        #expect(
            signal
                == .payload(
                    FetchedPayload(bytes: Data(#"{"a":1}"#.utf8), validators: Validators(etag: "\"v2\""), source: "sse x")))
    }

    @Test("the any-event mapping says only that something changed")
    func anyEventMapping() {
        let mapping = SignalMapping.anyEvent(eventTypes: ["config"])
        #expect(mapping.signal(for: ServerSentEvent(type: "config", data: "whatever"), source: "s") == .changed(version: nil))
        #expect(mapping.signal(for: ServerSentEvent(data: "whatever"), source: "s") == nil)
    }
}
