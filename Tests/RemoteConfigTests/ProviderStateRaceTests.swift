import ConfigDomain
import ConfigPorts
import Dispatch
import Foundation
import TestDoubles
import Testing

@testable import RemoteConfig

/// Status reads racing a push source's connection reports, on two threads that read the status as fast
/// as they can. It holds both cores while it runs, so `make test` runs it with the heavy suites, after the
/// loopback tests whose time limits it would starve.
@Suite("Provider states under racing status reads")
struct ProviderStateRaceTests {
    @Test(
        "status reads racing connection reports never leave a stale state recorded: every change is reported, in order",
        .timeLimit(.minutes(1)))
    func statusReadsRacingReports() async throws {
        let push = InMemoryChangeSignalSource()
        let observer = RecordingObserver()
        let client = try RemoteConfigBuilder.testing(fetcher: InMemoryFetcher(json: payload()), clock: ManualClock())
            .observer(observer).push(push).build()
        try await client.refresh()
        await push.waitForSubscribers(count: 1)
        let done = Locked(false)
        // Readers work the state out while the reports change it: a reader that recorded what it worked out
        // after a newer report did would leave the state recorded stale, and the next change to that state unreported.
        // On threads of their own: busy loops on the concurrency pool would starve the push source's task.
        let readers = DispatchGroup()
        for _ in 0..<2 {
            DispatchQueue.global().async(group: readers) {
                while !done.withLock({ $0 }) { _ = client.status.state }
            }
        }
        for round in 0..<1_000 {
            push.report(.disconnected(reason: "round \(round)", retryIn: 1))
            push.report(.connected)
            if round % 100 == 0 { await Task.yield() }
        }
        push.report(.disconnected(reason: "the last report", retryIn: nil))
        // Times out (the suite's limit) if the last change went unreported.
        _ = await observer.waitFor { event in
            if case .stateChanged(_, _, .stale, let reason) = event { reason.contains("the last report") } else { false }
        }
        done.withLock { $0 = true }
        await withCheckedContinuation { finished in readers.notify(queue: .global()) { finished.resume() } }
        let changes = observer.events.compactMap { event -> (ProviderState, ProviderState)? in
            if case .stateChanged(_, let from, let to, _) = event { (from, to) } else { nil }
        }
        let unchained = zip(changes, changes.dropFirst()).filter { $0.0.1 != $0.1.0 }
        #expect(unchained.isEmpty, "each change starts where the one before it ended: \(unchained.prefix(3))")
        #expect(changes.last?.1 == .stale)
        #expect(client.status.state == .stale)
    }

}
