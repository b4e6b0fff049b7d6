import Foundation
import TestSupport

/// What a child process writes to one pipe, collected as it arrives, with waits for a line or the end.
final class ChildOutput: @unchecked Sendable {
    // @unchecked Sendable: `bytes`, `complete`, `partial`, `ended` and `waiters` are only touched
    // while holding `lock`.
    private struct LineWaiter {
        var predicate: @Sendable (String) -> Bool
        var found: Eventual<String?>
    }

    private let lock = NSLock()
    private var bytes = Data()
    private var complete: [String] = []
    private var partial = Data()
    private var ended = false
    private var waiters: [LineWaiter] = []
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
        lock.lock()
        defer { lock.unlock() }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The lines so far, without their line feeds; an unterminated last line counts once the output ends.
    var lines: [String] {
        lock.lock()
        defer { lock.unlock() }
        return complete
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
        lock.lock()
        defer { lock.unlock() }
        if let match = complete.first(where: predicate) {
            found.set(match)
        } else if ended {
            found.set(nil)
        } else {
            waiters.append(LineWaiter(predicate: predicate, found: found))
        }
        return found
    }

    /// Drops a wait that gave up.
    private func forget(_ found: Eventual<String?>) {
        lock.lock()
        waiters.removeAll { $0.found === found }
        lock.unlock()
    }

    /// Waits until the output ends; false when `timeout` seconds (a safety net) pass first.
    @discardableResult
    func waitForEnd(within timeout: TimeInterval) async -> Bool {
        await end.value(within: timeout) != nil
    }

    private func append(_ data: Data) {
        lock.lock()
        bytes.append(data)
        partial.append(data)
        var added: [String] = []
        while let newline = partial.firstIndex(of: UInt8(ascii: "\n")) {
            added.append(String(decoding: partial[partial.startIndex..<newline], as: UTF8.self))
            partial = Data(partial[partial.index(after: newline)...])
        }
        complete.append(contentsOf: added)
        var matched: [(Eventual<String?>, String)] = []
        waiters.removeAll { waiter in
            guard let line = added.first(where: waiter.predicate) else { return false }
            matched.append((waiter.found, line))
            return true
        }
        lock.unlock()
        for (found, line) in matched { found.set(line) }
    }

    private func finish() {
        lock.lock()
        let last = partial.isEmpty ? nil : String(decoding: partial, as: UTF8.self)
        if let last { complete.append(last) }
        partial = Data()
        ended = true
        let unmatched = waiters
        waiters = []
        lock.unlock()
        for waiter in unmatched { waiter.found.set(last.flatMap { waiter.predicate($0) ? $0 : nil }) }
        end.set(())
    }
}
