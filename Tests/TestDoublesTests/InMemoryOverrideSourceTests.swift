import ConfigDomain
import ConfigPorts
import Foundation
import Testing

@testable import TestDoubles

func descriptor(_ name: String) -> KeyDescriptor {
    KeyDescriptor(name: name, typeName: "Bool", defaultValue: .bool(false))
}

@Suite("InMemoryOverrideSource")
struct InMemoryOverrideSourceTests {
    @Test func overridesAnswerOnlyForTheRequestedKeysWithOrigins() {
        let source = InMemoryOverrideSource(name: "debug", values: ["a": .value(true), "b": .text("yes")])
        let snapshot = source.overrides(for: [descriptor("a"), descriptor("z")])
        #expect(snapshot == OverrideSnapshot(values: ["a": OverrideValue(.value(true), origin: "debug:a")]))
        #expect(source.name == "debug")
    }

    @Test func setRemoveAndRemoveAllChangeTheValues() {
        let source = InMemoryOverrideSource()
        let keys = [descriptor("a"), descriptor("b")]
        source.set("a", .text("on"))
        source.set("b", value: .int(3))
        #expect(
            source.overrides(for: keys).values == [
                "a": OverrideValue(.text("on"), origin: "memory:a"),
                "b": OverrideValue(.value(.int(3)), origin: "memory:b"),
            ])
        source.remove("a")
        #expect(source.overrides(for: keys).values.keys.sorted() == ["b"])
        source.removeAll()
        #expect(source.overrides(for: keys) == .empty)
    }

    @Test func reportedProblemsAreReturnedNotThrown() {
        let source = InMemoryOverrideSource(values: ["a": .value(true)])
        source.report(problem: "line 3: missing '='")
        let snapshot = source.overrides(for: [descriptor("a")])
        #expect(snapshot.problems == ["line 3: missing '='"])
        #expect(snapshot.values["a"] != nil)
        source.removeAll()
        #expect(source.overrides(for: []).problems == ["line 3: missing '='"])
        source.clearProblems()
        #expect(source.overrides(for: []).problems.isEmpty)
    }

    @Test func changesYieldTheCurrentStateFirstThenEachChange() async {
        let source = InMemoryOverrideSource(values: ["a": .value(true)])
        var iterator = source.changes(for: [descriptor("a")]).makeAsyncIterator()
        #expect(await iterator.next()?.values["a"]?.content == .value(true))
        source.set("a", value: false)
        #expect(await iterator.next()?.values["a"]?.content == .value(false))
        source.remove("a")
        #expect(await iterator.next() == .empty)
        source.report(problem: "bad")
        #expect(await iterator.next()?.problems == ["bad"])
    }

    @Test func aSlowReaderGetsTheLatestState() async {
        let source = InMemoryOverrideSource()
        var iterator = source.changes(for: [descriptor("n")]).makeAsyncIterator()
        for value in 1...5 { source.set("n", value: .int(Int64(value))) }
        #expect(await iterator.next()?.values["n"]?.content == .value(.int(5)))
    }

    @Test func aSubscriberSeesOnlyItsOwnKeys() async {
        let source = InMemoryOverrideSource()
        var iterator = source.changes(for: [descriptor("a")]).makeAsyncIterator()
        #expect(await iterator.next() == .empty)
        source.set("other", value: true)
        source.set("a", value: true)
        #expect(await iterator.next()?.values.keys.sorted() == ["a"])
    }

    @Test func manySubscribersEachGetTheCurrentStateAndChanges() async {
        let source = InMemoryOverrideSource(values: ["a": .value(1)])
        let keys = [descriptor("a")]
        var iterators = (0..<8).map { _ in source.changes(for: keys).makeAsyncIterator() }
        #expect(source.subscriberCount == 8)
        for index in iterators.indices { #expect(await iterators[index].next()?.values["a"]?.content == .value(1)) }
        source.set("a", value: 2)
        for index in iterators.indices { #expect(await iterators[index].next()?.values["a"]?.content == .value(2)) }
    }

    @Test func cancellingTheConsumerFinishesTheStreamAndRemovesTheSubscriber() async {
        let source = InMemoryOverrideSource()
        let started = Flag()
        let firstSeen = AsyncStream<Void>.makeStream()
        let consumer = Task { () -> Int in
            var count = 0
            for await _ in source.changes(for: [descriptor("a")]) {
                count += 1
                if !started.isSet {
                    started.set()
                    firstSeen.continuation.yield()
                }
            }
            return count
        }
        var signals = firstSeen.stream.makeAsyncIterator()
        _ = await signals.next()
        #expect(source.subscriberCount == 1)
        consumer.cancel()
        let count = await consumer.value
        #expect(count >= 1)
        #expect(source.subscriberCount == 0)
    }
}

@Suite("RecordingObserver")
struct RecordingObserverTests {
    @Test func recordsEventsInOrder() {
        let observer = RecordingObserver()
        observer.receive(.refreshStarted)
        observer.receive(.notModified)
        #expect(observer.events == [.refreshStarted, .notModified])
        observer.removeAllEvents()
        #expect(observer.events.isEmpty)
    }

    @Test func waitForReturnsTheFirstMatchingRecordedEvent() async {
        let observer = RecordingObserver()
        let first = ConfigUpdate(changedKeys: ["a"], cause: .refresh, generation: 2)
        observer.receive(.activated(first))
        observer.receive(.activated(ConfigUpdate(changedKeys: ["b"], cause: .refresh, generation: 3)))
        let event = await observer.waitFor { if case .activated = $0 { true } else { false } }
        #expect(event == .activated(first))
    }

    @Test func waitForAwaitsTheNextMatchingEvent() async {
        let observer = RecordingObserver()
        let waiter = Task { await observer.waitFor { $0 == .notModified } }
        let other = Task { await observer.waitFor { $0 == .refreshStarted } }
        observer.receive(.refreshStarted)
        #expect(await other.value == .refreshStarted)
        observer.receive(.notModified)
        #expect(await waiter.value == .notModified)
    }

    @Test func isUsableAsAConfigObserver() {
        let observer = RecordingObserver()
        let erased: any ConfigObserver = observer
        erased.receive(.cacheMiss(name: "default"))
        #expect(observer.events == [.cacheMiss(name: "default")])
    }
}
