import ConfigDomain
import ConfigPorts
import Foundation
import Testing

@testable import TestDoubles

@Suite("ScriptedFetcher")
struct ScriptedFetcherTests {
    @Test func answersStepsInOrder() async throws {
        let fetcher = ScriptedFetcher()
        let payload = FetchedPayload(bytes: Data("{}".utf8), validators: Validators(etag: "\"p\""), source: "s")
        let failure = FetchError(.httpStatus(503), retry: .backoff, message: "unavailable")
        fetcher.enqueue(.modified(payload))
        fetcher.enqueue([.notModified(Validators(etag: "\"p\"")), .notModified(), .failure(failure)])
        #expect(fetcher.remainingSteps == 4)

        #expect(try await fetcher.fetch(FetchRequest()) == .modified(payload))
        #expect(try await fetcher.fetch(FetchRequest()) == .notModified(Validators(etag: "\"p\"")))
        #expect(try await fetcher.fetch(FetchRequest()) == .notModified(.none))
        await #expect(throws: failure) { try await fetcher.fetch(FetchRequest()) }
        #expect(fetcher.remainingSteps == 0)
    }

    @Test func modifiedJSONCarriesTheBytesETagAndSource() async throws {
        let fetcher = ScriptedFetcher(source: "scripted://x")
        fetcher.enqueue(.modifiedJSON(#"{"a":true}"#, etag: "\"v1\""))
        fetcher.enqueue(.modifiedJSON("{}", etag: nil))
        let expected = FetchedPayload(
            bytes: Data(#"{"a":true}"#.utf8), validators: Validators(etag: "\"v1\""), contentType: "application/json",
            source: "scripted://x")
        #expect(try await fetcher.fetch(FetchRequest()) == .modified(expected))
        guard case .modified(let second) = try await fetcher.fetch(FetchRequest()) else {
            Issue.record("expected modified")
            return
        }
        #expect(second.validators.isEmpty)
    }

    @Test func anExhaustedScriptThrowsAnActionableNonRetryableError() async {
        let fetcher = ScriptedFetcher()
        do {
            _ = try await fetcher.fetch(FetchRequest())
            Issue.record("expected a failure")
        } catch {
            #expect(error.kind == .other)
            #expect(error.retry == .doNotRetry)
            #expect(error.message.hasPrefix("ScriptedFetcher: script exhausted"))
            #expect(error.message.contains("#1"))
        }
    }

    @Test func recordsRequests() async throws {
        let fetcher = ScriptedFetcher()
        fetcher.enqueue([.notModified(), .notModified()])
        let requests = [FetchRequest(), FetchRequest(validators: Validators(etag: "\"e\""), configurationName: "b")]
        for request in requests { _ = try await fetcher.fetch(request) }
        #expect(fetcher.requests == requests)
        #expect(fetcher.fetchCount == 2)
    }

    @Test func aHeldStepWaitsForRelease() async throws {
        let fetcher = ScriptedFetcher()
        let hold = fetcher.enqueueHeld(.modifiedJSON("{}", etag: "\"h\""))
        let answered = Flag()
        let task = Task { () throws(FetchError) -> FetchResult in
            let result = try await fetcher.fetch(FetchRequest())
            answered.set()
            return result
        }
        await hold.waitUntilReached()
        #expect(hold.isReached)
        #expect(!hold.isReleased)
        #expect(!answered.isSet)
        hold.release()
        guard case .modified(let payload) = try await task.value else {
            Issue.record("expected modified")
            return
        }
        #expect(payload.validators.etag == "\"h\"")
        #expect(answered.isSet)
    }

    @Test func aHoldReleasedBeforehandLetsTheFetchThrough() async throws {
        let fetcher = ScriptedFetcher()
        let hold = fetcher.enqueueHeld(.notModified())
        hold.release()
        hold.release()
        #expect(try await fetcher.fetch(FetchRequest()) == .notModified(.none))
        await hold.waitUntilReached()
        #expect(hold.isReached)
    }

    @Test func heldStepsAfterUnheldOnesHoldOnlyTheirFetch() async throws {
        let fetcher = ScriptedFetcher()
        fetcher.enqueue(.notModified())
        let hold = fetcher.enqueueHeld(.failure(FetchError(.timeout, retry: .backoff, message: "slow")))
        #expect(try await fetcher.fetch(FetchRequest()) == .notModified(.none))
        #expect(!hold.isReached)
        let task = Task { () throws(FetchError) -> FetchResult in try await fetcher.fetch(FetchRequest()) }
        await hold.waitUntilReached()
        hold.release()
        await #expect(throws: FetchError.self) { try await task.value }
    }

    @Test func cancellingAHeldFetchThrowsCancelledAndUsesUpItsStep() async {
        let fetcher = ScriptedFetcher()
        let hold = fetcher.enqueueHeld(.notModified())
        let task = Task { () throws(FetchError) -> FetchResult in try await fetcher.fetch(FetchRequest()) }
        await hold.waitUntilReached()
        task.cancel()
        await #expect(throws: FetchError.cancelled) { try await task.value }
        #expect(fetcher.remainingSteps == 0)
    }

    @Test func anAlreadyCancelledFetchTakesNoStep() async {
        let fetcher = ScriptedFetcher()
        fetcher.enqueue(.notModified())
        let task = Task { () throws(FetchError) -> FetchResult in
            withUnsafeCurrentTask { $0?.cancel() }
            return try await fetcher.fetch(FetchRequest())
        }
        await #expect(throws: FetchError.cancelled) { try await task.value }
        #expect(fetcher.remainingSteps == 1)
        #expect(fetcher.fetchCount == 1)
    }

    @Test func waitForFetchesReturnsOnceThatManyHaveStarted() async throws {
        let fetcher = ScriptedFetcher()
        let holds = (0..<3).map { _ in fetcher.enqueueHeld(.notModified()) }
        let waiter = Task { () -> Int in
            await fetcher.waitForFetches(count: 3)
            return fetcher.fetchCount
        }
        let fetches = (0..<3).map { _ in
            Task { () throws(FetchError) -> FetchResult in try await fetcher.fetch(FetchRequest()) }
        }
        #expect(await waiter.value == 3)
        await fetcher.waitForFetches(count: 2)
        for hold in holds { hold.release() }
        for fetch in fetches { #expect(try await fetch.value == .notModified(.none)) }
    }

    @Test func cancellingWaitersReturnsThem() async {
        let fetcher = ScriptedFetcher()
        let hold = fetcher.enqueueHeld(.notModified())
        let fetchWaiter = Task { await fetcher.waitForFetches(count: 1) }
        let holdWaiter = Task { await hold.waitUntilReached() }
        fetchWaiter.cancel()
        holdWaiter.cancel()
        await fetchWaiter.value
        await holdWaiter.value
        #expect(fetcher.fetchCount == 0)
        #expect(!hold.isReached)
    }
}

/// A thread-safe Boolean for tests.
final class Flag: Sendable {
    private let state = Locked(false)
    /// Sets the flag.
    func set() { state.withLock { $0 = true } }
    /// Whether it was set.
    var isSet: Bool { state.current }
}

@Suite("FetchHold")
struct FetchHoldTests {
    @Test func aStandaloneHoldSuspendsABackendUntilReleased() async {
        let hold = FetchHold()
        let done = Flag()
        let backend = Task {
            await hold.suspendUntilReleased()
            done.set()
        }
        await hold.waitUntilReached()
        #expect(!done.isSet)
        hold.release()
        await backend.value
        #expect(done.isSet)
    }

    @Test func cancellingASuspendedBackendReturns() async {
        let hold = FetchHold()
        let backend = Task { await hold.suspendUntilReleased() }
        await hold.waitUntilReached()
        backend.cancel()
        await backend.value
        #expect(!hold.isReleased)
    }
}
