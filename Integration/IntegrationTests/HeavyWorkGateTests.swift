import TestSupport
import Testing

@Suite("HeavyWorkGate, which keeps the fleet simulation apart from loopback servers")
struct HeavyWorkGateTests {
    @Test("shared holders run together; an exclusive one waits for them, and a shared one waits for it")
    func exclusiveExcludes() async {
        let gate = HeavyWorkGate()
        let releaseShared = Gate()
        let sharedIn = Eventual<Void>()
        let exclusiveIn = Eventual<Void>()
        let releaseExclusive = Gate()
        let first = Task {
            await gate.shared {
                // A second shared holder gets in while this one holds the gate.
                await gate.shared { _ = sharedIn.set(()) }
                await releaseShared.wait()
            }
        }
        #expect(await sharedIn.value(within: 300) != nil)
        let exclusive = Task {
            await gate.exclusively {
                _ = exclusiveIn.set(())
                await releaseExclusive.wait()
            }
        }
        #expect(exclusiveIn.current == nil, "the exclusive holder got in beside a shared one")
        releaseShared.open()
        await first.value
        #expect(await exclusiveIn.value(within: 300) != nil)
        let lateShared = Eventual<Void>()
        let late = Task { await gate.shared { _ = lateShared.set(()) } }
        #expect(lateShared.current == nil, "a shared holder got in beside the exclusive one")
        releaseExclusive.open()
        await exclusive.value
        await late.value
        #expect(lateShared.current != nil)
    }
}
