import ConfigPorts
import Foundation
import TestSupport

/// What a child process writes to one pipe, collected as it arrives, with waits for a line or the end.
final class ChildOutput: Sendable {
    private struct LineWaiter {
        var predicate: @Sendable (String) -> Bool
        var found: Eventual<String?>
    }

    private struct State {
        var bytes = Data()
        var complete: [String] = []
        var partial = Data()
        var ended = false
        var waiters: [LineWaiter] = []
    }

    private let state = Locked(State())
    private let end = Eventual<Void>()

    private init() {}

    /// Reads `handle` until end of file on a thread of its own (`FileHandle.bytes` does not exist
    /// on Linux, and a blocking read must not hold a cooperative-pool thread).
    static func reading(_ handle: FileHandle) -> ChildOutput {
        let output = ChildOutput()
        Thread.detachNewThread {
            while true {
                let data = handle.availableData
                if data.isEmpty { break }
                output.append(data)
            }
            output.finish()
        }
        return output
    }

    /// An output that has already ended with nothing in it (a stream sent elsewhere).
    static func empty() -> ChildOutput {
        let output = ChildOutput()
        output.finish()
        return output
    }

    /// Everything written so far, as UTF-8.
    var text: String {
        state.withLock { String(decoding: $0.bytes, as: UTF8.self) }
    }

    /// The lines so far, without their line feeds; an unterminated last line counts once the output ends.
    var lines: [String] {
        state.withLock { $0.complete }
    }

    /// The first line, already written or still to come, that satisfies `predicate`; nil when the
    /// output ends first, or when `timeout` seconds (a safety net, when given) pass first.
    func line(within timeout: TimeInterval? = nil, where predicate: @escaping @Sendable (String) -> Bool) async -> String? {
        let found = register(predicate)
        guard let timeout else { return await found.value() }
        guard let result = await found.value(within: timeout) else {
            forget(found)
            return nil
        }
        return result
    }

    /// What a wait for a line satisfying `predicate` waits for: set at once when such a line is
    /// already there (or the output has ended), otherwise when one arrives.
    private func register(_ predicate: @escaping @Sendable (String) -> Bool) -> Eventual<String?> {
        let found = Eventual<String?>()
        // What is already known, decided under the lock; the Eventual is set after it is released.
        let known: String?? = state.withLock { state in
            if let match = state.complete.first(where: predicate) { return .some(match) }
            if state.ended { return .some(nil) }
            state.waiters.append(LineWaiter(predicate: predicate, found: found))
            return nil
        }
        if let known { found.set(known) }
        return found
    }

    /// Drops a wait that gave up.
    private func forget(_ found: Eventual<String?>) {
        state.withLock { $0.waiters.removeAll { $0.found === found } }
    }

    /// Waits until the output ends; false when `timeout` seconds (a safety net) pass first.
    @discardableResult
    func waitForEnd(within timeout: TimeInterval) async -> Bool {
        await end.value(within: timeout) != nil
    }

    private func append(_ data: Data) {
        let matched = state.withLock { state -> [(Eventual<String?>, String)] in
            state.bytes.append(data)
            state.partial.append(data)
            var added: [String] = []
            while let newline = state.partial.firstIndex(of: UInt8(ascii: "\n")) {
                added.append(String(decoding: state.partial[state.partial.startIndex..<newline], as: UTF8.self))
                state.partial = Data(state.partial[state.partial.index(after: newline)...])
            }
            state.complete.append(contentsOf: added)
            var matched: [(Eventual<String?>, String)] = []
            state.waiters.removeAll { waiter in
                guard let line = added.first(where: waiter.predicate) else { return false }
                matched.append((waiter.found, line))
                return true
            }
            return matched
        }
        for (found, line) in matched { found.set(line) }
    }

    private func finish() {
        let (last, unmatched) = state.withLock { state -> (String?, [LineWaiter]) in
            let last = state.partial.isEmpty ? nil : String(decoding: state.partial, as: UTF8.self)
            if let last { state.complete.append(last) }
            state.partial = Data()
            state.ended = true
            defer { state.waiters = [] }
            return (last, state.waiters)
        }
        for waiter in unmatched { waiter.found.set(last.flatMap { waiter.predicate($0) ? $0 : nil }) }
        end.set(())
    }
}
