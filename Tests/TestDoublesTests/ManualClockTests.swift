import ConfigPorts
import Foundation
import Testing

@testable import TestDoubles

@Suite("ManualClock")
struct ManualClockTests {
    @Test func startsAtTheGivenInstantAndDefaultsToAFixedOne() {
        #expect(ManualClock().now() == Date(timeIntervalSince1970: 1_700_000_000))
        #expect(ManualClock(now: Date(timeIntervalSince1970: 5)).now() == Date(timeIntervalSince1970: 5))
    }

    @Test func advanceMovesTimeForward() {
        let clock = ManualClock()
        let start = clock.now()
        clock.advance(by: 90)
        #expect(clock.now() == start.addingTimeInterval(90))
    }

    @Test func sleepWaitsUntilTheClockReachesItsDeadline() async throws {
        let clock = ManualClock()
        let start = clock.now()
        let sleeper = Task { () -> Date in
            try await clock.sleep(for: 30)
            return clock.now()
        }
        await clock.waitForSleepers(count: 1)
        clock.advance(by: 29)
        #expect(clock.sleeperCount == 1)
        clock.advance(by: 1)
        let wokeAt = try await sleeper.value
        #expect(wokeAt == start.addingTimeInterval(30))
        #expect(clock.sleeperCount == 0)
    }

    @Test func advanceResumesOnlyTheSleepersWhoseDeadlineIsReached() async throws {
        let clock = ManualClock()
        let short = Task { try await clock.sleep(for: 10) }
        let middle = Task { try await clock.sleep(for: 20) }
        let long = Task { try await clock.sleep(for: 30) }
        await clock.waitForSleepers(count: 3)

        clock.advance(by: 15)
        try await short.value
        #expect(clock.sleeperCount == 2)

        clock.advance(by: 100)
        try await middle.value
        try await long.value
        #expect(clock.sleeperCount == 0)
    }

    @Test func sleepOfZeroOrLessReturnsAtOnce() async throws {
        let clock = ManualClock()
        try await clock.sleep(for: 0)
        try await clock.sleep(for: -5)
        #expect(clock.sleeperCount == 0)
    }

    @Test func sleepOfZeroInACancelledTaskThrowsCancellation() async {
        let clock = ManualClock()
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await clock.sleep(for: 0)
        }
        await #expect(throws: CancellationError.self) { try await task.value }
    }

    @Test func cancellingASleeperThrowsCancellationAndRemovesIt() async {
        let clock = ManualClock()
        let sleeper = Task { try await clock.sleep(for: 3600) }
        await clock.waitForSleepers(count: 1)
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(clock.sleeperCount == 0)
    }

    @Test func sleepingInAnAlreadyCancelledTaskThrowsWithoutRegistering() async {
        let clock = ManualClock()
        let sleeper = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await clock.sleep(for: 10)
        }
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(clock.sleeperCount == 0)
    }

    @Test func setMovesBackwardsWithoutResumingAndForwardsResumes() async throws {
        let clock = ManualClock()
        let start = clock.now()
        let sleeper = Task { try await clock.sleep(for: 10) }
        await clock.waitForSleepers(count: 1)

        clock.set(to: start.addingTimeInterval(-3600))
        #expect(clock.now() == start.addingTimeInterval(-3600))
        #expect(clock.sleeperCount == 1)

        clock.set(to: start.addingTimeInterval(10))
        try await sleeper.value
        #expect(clock.sleeperCount == 0)
    }

    @Test func negativeAdvanceMovesBackAndResumesNothing() async {
        let clock = ManualClock()
        let start = clock.now()
        let sleeper = Task { try await clock.sleep(for: 1) }
        await clock.waitForSleepers(count: 1)
        clock.advance(by: -60)
        #expect(clock.now() == start.addingTimeInterval(-60))
        #expect(clock.sleeperCount == 1)
        sleeper.cancel()
        _ = await sleeper.result
    }

    @Test func waitForSleepersReturnsAtOnceWhenEnoughAreAsleep() async {
        let clock = ManualClock()
        await clock.waitForSleepers(count: 0)
        let sleeper = Task { try await clock.sleep(for: 5) }
        await clock.waitForSleepers(count: 1)
        await clock.waitForSleepers(count: 1)
        #expect(clock.sleeperCount == 1)
        clock.advance(by: 5)
        _ = await sleeper.result
    }

    @Test func waitForSleepersWaitsForTheCountToBeReached() async throws {
        let clock = ManualClock()
        let waiter = Task { () -> Int in
            await clock.waitForSleepers(count: 3)
            return clock.sleeperCount
        }
        let sleepers = (1...3).map { index in Task { try await clock.sleep(for: TimeInterval(index)) } }
        let seen = await waiter.value
        #expect(seen >= 3)
        clock.advance(by: 3)
        for sleeper in sleepers { try await sleeper.value }
    }

    @Test func cancellingWaitForSleepersReturns() async {
        let clock = ManualClock()
        let waiter = Task { await clock.waitForSleepers(count: 1) }
        waiter.cancel()
        await waiter.value
        #expect(clock.sleeperCount == 0)
    }

    @Test func isUsableAsAConfigClock() async throws {
        let clock: any ConfigClock = ManualClock()
        let manual = try #require(clock as? ManualClock)
        let task = Task { try await clock.sleep(for: 1) }
        await manual.waitForSleepers(count: 1)
        manual.advance(by: 1)
        try await task.value
        #expect(manual.sleeperCount == 0)
    }
}
