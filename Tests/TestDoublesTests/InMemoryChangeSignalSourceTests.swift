import ConfigDomain
import ConfigPorts
import Foundation
import Testing

@testable import TestDoubles

@Suite("InMemoryChangeSignalSource")
struct InMemoryChangeSignalSourceTests {
    @Test func aSubscriberGetsTheCurrentStateThenEverySignalInOrder() async {
        let source = InMemoryChangeSignalSource(name: "push", current: .changed(version: "v1"))
        var iterator = source.signals().makeAsyncIterator()
        #expect(await iterator.next() == .changed(version: "v1"))
        let payload = FetchedPayload(bytes: Data("{}".utf8), validators: Validators(etag: "\"v3\""), source: "push")
        source.announce(version: "v2")
        source.deliver(payload)
        #expect(await iterator.next() == .changed(version: "v2"))
        #expect(await iterator.next() == .payload(payload))
        #expect(source.current == .payload(payload))
        #expect(source.name == "push")
    }

    @Test func aNewSourceSaysOnlyThatSomethingMayHaveChanged() async {
        var iterator = InMemoryChangeSignalSource().signals().makeAsyncIterator()
        #expect(await iterator.next() == .changed(version: nil))
    }

    @Test func cancellingTheConsumerEndsItsSubscription() async {
        let source = InMemoryChangeSignalSource()
        let firstSeen = Promise<Void>()
        let consumer = Task {
            for await _ in source.signals() { firstSeen.fulfill(()) }
        }
        await source.waitForSubscribers(count: 1)
        _ = await firstSeen.wait()
        #expect(source.subscriberCount == 1)
        consumer.cancel()
        await consumer.value
        await source.waitUntilNoSubscribers()
        #expect(source.subscriberCount == 0)
        #expect(source.subscriptionCount == 1)
    }
}
