import ConfigPorts
import Foundation

/// The faults waiting for the next requests, in order.
final class FaultQueue: Sendable {
    private let faults = Locked<[TestHTTPServer.Fault]>([])

    /// Adds `count` copies of `fault` at the end.
    func add(_ fault: TestHTTPServer.Fault, count: Int) {
        faults.withLock { $0.append(contentsOf: Array(repeating: fault, count: count)) }
    }

    /// Takes the next fault, if any.
    func next() -> TestHTTPServer.Fault? {
        faults.withLock { $0.isEmpty ? nil : $0.removeFirst() }
    }

    /// Removes every fault.
    func clear() {
        faults.withLock { $0.removeAll() }
    }
}
