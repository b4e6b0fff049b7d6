import ConfigPorts
import Foundation
import Testing

@testable import RemoteConfig

/// The fan-out behind `events()` and `watch`: its table is made by the first
/// subscriber, so what is sent before that reaches no one, and a finished broadcaster takes no one.
@Suite("Broadcaster")
struct BroadcasterTests {
    /// Collects what a handler is called with (the handler runs on the sending thread).
    final class Received: Sendable {
        private let values = Locked<[Int]>([])
        func append(_ value: Int) { values.withLock { $0.append(value) } }
        var all: [Int] { values.current }
    }

    @Test("elements sent before the first subscriber reach no one; a stream gets every later one, in order")
    func laterSubscribersGetLaterElements() async {
        let broadcaster = Broadcaster<Int>()
        broadcaster.send(1)
        let stream = broadcaster.stream()
        broadcaster.send(2)
        broadcaster.send(3)
        broadcaster.finish()
        var got: [Int] = []
        for await value in stream { got.append(value) }
        #expect(got == [2, 3])
    }

    @Test("a handler is called for each later element until it is removed")
    func handlers() {
        let broadcaster = Broadcaster<Int>()
        let received = Received()
        let id = broadcaster.addHandler { received.append($0) }
        broadcaster.send(1)
        broadcaster.send(2)
        broadcaster.removeHandler(id)
        broadcaster.send(3)
        #expect(received.all == [1, 2])
    }

    @Test("after finish, a new stream ends at once and a new handler is never called")
    func finished() async {
        let broadcaster = Broadcaster<Int>()
        let early = broadcaster.stream()
        broadcaster.send(0)
        broadcaster.finish()
        let late = broadcaster.stream()
        let received = Received()
        _ = broadcaster.addHandler { received.append($0) }
        broadcaster.send(1)
        var fromEarly: [Int] = []
        for await value in early { fromEarly.append(value) }
        var fromLate: [Int] = []
        for await value in late { fromLate.append(value) }
        #expect(fromEarly == [0])
        #expect(fromLate.isEmpty)
        #expect(received.all.isEmpty)
    }
}
