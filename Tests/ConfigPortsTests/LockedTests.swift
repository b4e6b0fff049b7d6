import ConfigPorts
import Testing

@Suite("Locked")
struct LockedTests {
    private struct Refusal: Error, Equatable {}

    @Test("changes from many tasks at once are all kept")
    func concurrentChanges() async {
        let counter = Locked(0)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    for _ in 0..<1_000 { counter.withLock { $0 += 1 } }
                }
            }
        }
        #expect(counter.current == 8_000)
    }

    @Test("an error thrown inside withLock reaches the caller, and the lock is free again")
    func throwingBody() {
        let state = Locked([1])
        #expect(throws: Refusal()) {
            try state.withLock { (value: inout [Int]) throws(Refusal) in
                value.append(2)
                throw Refusal()
            }
        }
        #expect(state.withLock { $0.count } == 2)
    }
}
