import ConfigPorts
import TestSupport
import Testing

@Suite("ChildSlots, the limit on child processes of the integration tests")
struct ChildSlotsTests {
    @Test("no more tasks hold a slot at once than there are slots, and every waiting task gets one")
    func limitsHoldersAndServesEveryWaiter() async {
        let slots = ChildSlots(count: 2)
        let holders = Locked((now: 0, most: 0, finished: 0))
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<50 {
                group.addTask {
                    await slots.acquire()
                    holders.withLock {
                        $0.now += 1
                        $0.most = max($0.most, $0.now)
                    }
                    await Task.yield()
                    holders.withLock {
                        $0.now -= 1
                        $0.finished += 1
                    }
                    slots.release()
                }
            }
        }
        let counts = holders.current
        #expect(counts.most <= 2)
        #expect(counts.finished == 50)
    }

    @Test("a task waiting for a slot gets the one given back")
    func aReleasedSlotGoesToTheWaiter() async {
        let slots = ChildSlots(count: 1)
        await slots.acquire()
        let acquired = Eventual<Void>()
        let waiter = Task {
            await slots.acquire()
            acquired.set(())
        }
        #expect(acquired.current == nil, "a second task got the only slot while it was held")
        slots.release()
        // A safety net, not a timed assertion: the waiter is woken by `release()`. It is generous because the
        // fleet simulation's 10,000 clients can keep a 2-core machine's task pool busy for tens of seconds.
        #expect(await acquired.value(within: 300) != nil)
        await waiter.value
        slots.release()
    }
}
