import Foundation

/// The faults waiting for the next requests, in order.
final class FaultQueue: @unchecked Sendable {
    // @unchecked Sendable: `faults` is only touched while holding `lock`.
    private let lock = NSLock()
    private var faults: [TestHTTPServer.Fault] = []

    /// Adds `count` copies of `fault` at the end.
    func add(_ fault: TestHTTPServer.Fault, count: Int) {
        lock.lock()
        faults.append(contentsOf: Array(repeating: fault, count: count))
        lock.unlock()
    }

    /// Takes the next fault, if any.
    func next() -> TestHTTPServer.Fault? {
        lock.lock()
        defer { lock.unlock() }
        return faults.isEmpty ? nil : faults.removeFirst()
    }

    /// Removes every fault.
    func clear() {
        lock.lock()
        faults.removeAll()
        lock.unlock()
    }
}
