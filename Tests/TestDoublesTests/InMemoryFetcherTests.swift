import ConfigDomain
import ConfigPorts
import Foundation
import Testing

@testable import TestDoubles

@Suite("InMemoryFetcher")
struct InMemoryFetcherTests {
    private func modified(_ result: FetchResult) throws -> FetchedPayload {
        guard case .modified(let payload) = result else {
            Issue.record("expected modified, got \(result)")
            throw FetchError(.other, retry: .doNotRetry, message: "not modified")
        }
        return payload
    }

    @Test func firstFetchReturnsThePayloadWithAStrongETag() async throws {
        let fetcher = InMemoryFetcher(json: #"{"a":1}"#)
        let payload = try modified(try await fetcher.fetch(FetchRequest()))
        #expect(payload.bytes == Data(#"{"a":1}"#.utf8))
        #expect(payload.source == "memory://config")
        #expect(payload.contentType == "application/json")
        let etag = try #require(payload.validators.etag)
        #expect(etag.hasPrefix("\"") && etag.hasSuffix("\"") && !etag.hasPrefix("W/"))
        #expect(etag == fetcher.currentETag)
    }

    @Test func aRequestWithTheCurrentETagIsNotModified() async throws {
        let fetcher = InMemoryFetcher(json: #"{"a":1}"#)
        let etag = fetcher.currentETag
        let result = try await fetcher.fetch(FetchRequest(validators: Validators(etag: etag)))
        #expect(result == .notModified(Validators(etag: etag)))
        let weak = try await fetcher.fetch(FetchRequest(validators: Validators(etag: "W/" + etag)))
        #expect(weak == .notModified(Validators(etag: etag)))
    }

    @Test func aStaleETagGetsTheNewPayload() async throws {
        let fetcher = InMemoryFetcher(json: #"{"a":1}"#)
        let old = fetcher.currentETag
        fetcher.serve(json: #"{"a":2}"#)
        #expect(fetcher.currentETag != old)
        let payload = try modified(try await fetcher.fetch(FetchRequest(validators: Validators(etag: old))))
        #expect(payload.bytes == Data(#"{"a":2}"#.utf8))
        #expect(payload.validators.etag == fetcher.currentETag)
    }

    @Test func servingTheSameBytesKeepsTheETag() {
        let fetcher = InMemoryFetcher(payload: Data("x".utf8))
        let etag = fetcher.currentETag
        fetcher.serve(payload: Data("x".utf8))
        #expect(fetcher.currentETag == etag)
        #expect(fetcher.currentPayload == Data("x".utf8))
    }

    @Test func customSourceIsReported() async throws {
        let fetcher = InMemoryFetcher(json: "{}", source: "memory://other")
        #expect(try modified(try await fetcher.fetch(FetchRequest())).source == "memory://other")
    }

    @Test func failNextFailsExactlyThatManyFetches() async throws {
        let fetcher = InMemoryFetcher(json: "{}")
        let error = FetchError(.transport, retry: .backoff, message: "connection refused")
        fetcher.failNext(error, times: 2)
        await #expect(throws: error) { try await fetcher.fetch(FetchRequest()) }
        await #expect(throws: error) { try await fetcher.fetch(FetchRequest()) }
        _ = try modified(try await fetcher.fetch(FetchRequest()))
        #expect(fetcher.fetchCount == 3)
    }

    @Test func failNextWithZeroTimesFailsNothing() async throws {
        let fetcher = InMemoryFetcher(json: "{}")
        fetcher.failNext(FetchError(.timeout, retry: .backoff, message: "t"), times: 0)
        _ = try modified(try await fetcher.fetch(FetchRequest()))
    }

    @Test func failAllFailsUntilCleared() async throws {
        let fetcher = InMemoryFetcher(json: "{}")
        let error = FetchError(.httpStatus(500), retry: .backoff, message: "server error")
        fetcher.failAll(with: error)
        for _ in 0..<3 { await #expect(throws: error) { try await fetcher.fetch(FetchRequest()) } }
        fetcher.failAll(with: nil)
        _ = try modified(try await fetcher.fetch(FetchRequest()))
    }

    @Test func queuedFailuresComeBeforeFailAll() async {
        let fetcher = InMemoryFetcher(json: "{}")
        let first = FetchError(.timeout, retry: .backoff, message: "first")
        let always = FetchError(.transport, retry: .backoff, message: "always")
        fetcher.failAll(with: always)
        fetcher.failNext(first)
        await #expect(throws: first) { try await fetcher.fetch(FetchRequest()) }
        await #expect(throws: always) { try await fetcher.fetch(FetchRequest()) }
    }

    @Test func recordsEveryRequestInOrder() async throws {
        let fetcher = InMemoryFetcher(json: "{}")
        fetcher.failNext(FetchError(.timeout, retry: .backoff, message: "t"))
        let first = FetchRequest(validators: .none, configurationName: "one")
        let second = FetchRequest(validators: Validators(etag: "\"x\""), configurationName: "two")
        _ = try? await fetcher.fetch(first)
        _ = try await fetcher.fetch(second)
        #expect(fetcher.requests == [first, second])
        #expect(fetcher.fetchCount == 2)
    }

    @Test func aCancelledTaskGetsCancelled() async {
        let fetcher = InMemoryFetcher(json: "{}")
        let task = Task { () throws(FetchError) -> FetchResult in
            withUnsafeCurrentTask { $0?.cancel() }
            return try await fetcher.fetch(FetchRequest())
        }
        await #expect(throws: FetchError.cancelled) { try await task.value }
        #expect(fetcher.fetchCount == 1)
    }

    @Test func holdNextHoldsOneFetchAndAnswersFromTheStateAtRelease() async throws {
        let fetcher = InMemoryFetcher(json: #"{"a":1}"#)
        let hold = fetcher.holdNext()
        let held = Task { () throws(FetchError) -> FetchResult in try await fetcher.fetch(FetchRequest()) }
        await hold.waitUntilReached()
        let unheld = try modified(try await fetcher.fetch(FetchRequest()))
        #expect(unheld.bytes == Data(#"{"a":1}"#.utf8))
        fetcher.serve(json: #"{"a":2}"#)
        hold.release()
        #expect(try modified(try await held.value).bytes == Data(#"{"a":2}"#.utf8))
        #expect(fetcher.fetchCount == 2)
    }

    @Test func cancellingAHeldFetchThrowsCancelled() async {
        let fetcher = InMemoryFetcher(json: "{}")
        let hold = fetcher.holdNext()
        let task = Task { () throws(FetchError) -> FetchResult in try await fetcher.fetch(FetchRequest()) }
        await hold.waitUntilReached()
        task.cancel()
        await #expect(throws: FetchError.cancelled) { try await task.value }
    }
}
