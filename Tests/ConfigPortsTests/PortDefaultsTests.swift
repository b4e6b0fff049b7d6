import ConfigDomain
import ConfigPorts
import Foundation
import Testing

@Suite("Port defaults")
struct PortDefaultsTests {
    /// An override source that implements only `overrides(for:)`.
    struct FixedSource: OverrideSource {
        let name = "fixed"
        func overrides(for keys: [KeyDescriptor]) -> OverrideSnapshot {
            OverrideSnapshot(values: ["a": OverrideValue(.text("1"), origin: "fixed:a")], problems: ["note"])
        }
    }

    @Test("the default change stream yields the current state once, then finishes")
    func defaultChangeStream() async {
        var iterator = FixedSource().changes(for: []).makeAsyncIterator()
        let first = await iterator.next()
        #expect(first?.values["a"] == OverrideValue(.text("1"), origin: "fixed:a"))
        #expect(first?.problems == ["note"])
        #expect(await iterator.next() == nil)
    }

    @Test("the system clock reads wall time and sleeps; cancellation interrupts a sleep")
    func systemClock() async throws {
        let clock = SystemClock()
        let before = Date()
        #expect(abs(clock.now().timeIntervalSince(before)) < 5)
        try await clock.sleep(for: 0)
        let sleeper = Task { try await clock.sleep(for: 3600) }
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
    }

    @Test("a closure observer forwards every event")
    func closureObserver() {
        let seen = Box()
        let observer = ClosureObserver { seen.add($0) }
        observer.receive(.refreshStarted)
        observer.receive(.notModified)
        #expect(seen.events == [.refreshStarted, .notModified])
    }

    @Test("a load result exposes its snapshot only on a hit")
    func loadResult() {
        let bytes = Data("{}".utf8)
        let snapshot = CachedSnapshot(
            payload: bytes,
            metadata: SnapshotMetadata(
                fetchedAt: Date(timeIntervalSince1970: 0), contentHash: ContentHash(of: bytes), source: "t"))
        #expect(CacheLoadResult.hit(snapshot).snapshot == snapshot)
        #expect(CacheLoadResult.miss.snapshot == nil)
        #expect(CacheLoadResult.unreadable(CacheError(.corrupt(.empty), message: "empty")).snapshot == nil)
    }

    @Test("a fetch request is unconditional by default")
    func fetchRequestDefaults() {
        let request = FetchRequest()
        #expect(request.validators.isEmpty)
        #expect(request.configurationName == "default")
        #expect(CacheSlot.allCases == [.active, .pending, .lastGood])
    }

    /// The events a closure observer forwarded, kept under a lock.
    final class Box: Sendable {
        private let storage = Locked<[ConfigEvent]>([])
        func add(_ event: ConfigEvent) { storage.withLock { $0.append(event) } }
        var events: [ConfigEvent] { storage.current }
    }
}
