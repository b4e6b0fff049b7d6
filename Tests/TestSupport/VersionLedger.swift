import ConfigPorts
import Foundation

/// Records the versions a client applied, in order, and checks the liveness invariants of push
/// under faults (ARCHITECTURE.md, "Liveness").
///
/// The API, kept small and stable for every suite that breaks connections or servers:
///
/// ```swift
/// let ledger = VersionLedger()                     // init()
/// ledger.record(7)                                 // record(_ version: Int): the client applied version 7
/// ledger.applied                                   // var applied: [Int]: every version recorded, in order
/// ledger.violations(publishedUpTo: 12)             // func violations(publishedUpTo n: Int) -> [String]
/// await ledger.waitUntilHolding(12, within: 3)     // seconds it took, or nil (a deadline, never a sleep)
/// VersionLedger.openFileDescriptors()              // static: the process's open descriptors (/proc/self/fd)
/// ```
///
/// The server publishes versions 1, 2, … n; record each version the client applies, as it applies
/// it (one `record` per activation, also when the value did not change). `violations` then lists,
/// one sentence each, what broke an invariant: a version applied twice, an older version applied
/// after a newer one (out of order), a version never published, and a client that does not hold
/// version n at the end. It does not ask that every version be applied: a client may skip versions
/// that a newer one replaced before it fetched.
///
/// Liveness in time: after the faults stop, `waitUntilHolding(n, within:)` waits until the client
/// holds version n, and says how long it took; the bound to give it is the reconnect backoff's
/// maximum plus one heartbeat timeout (plus what the machine's load adds, for a loaded test run).
///
/// Leaks: count `openFileDescriptors()` before and after (on a quiet process: other tests running at
/// the same time open and close descriptors too).
package final class VersionLedger: Sendable {
    private struct State {
        var applied: [Int] = []
        var waiters: [(version: Int, reached: Eventual<Void>)] = []
    }

    private let state = Locked(State())

    /// An empty ledger.
    package init() {}

    /// Records that the client applied `version` (call it once per activation).
    package func record(_ version: Int) {
        let ready = state.withLock { state -> [Eventual<Void>] in
            state.applied.append(version)
            let ready = state.waiters.filter { $0.version <= version }.map(\.reached)
            state.waiters.removeAll { $0.version <= version }
            return ready
        }
        for reached in ready { reached.set(()) }
    }

    /// Every version recorded, in the order it was applied.
    package var applied: [Int] { state.withLock { $0.applied } }

    /// What broke an invariant, given that the server published versions 1 through `n`: one sentence
    /// each, empty when none did.
    package func violations(publishedUpTo n: Int) -> [String] {
        let applied = self.applied
        var problems: [String] = []
        var highest = Int.min
        var seen = Set<Int>()
        for (index, version) in applied.enumerated() {
            if !(1...max(1, n)).contains(version) {
                problems.append("applied version \(version) (application \(index + 1)), which was never published (1...\(n))")
            }
            if seen.contains(version) {
                problems.append("applied version \(version) twice (again at application \(index + 1))")
            } else if version < highest {
                problems.append("applied version \(version) after the newer version \(highest) (application \(index + 1))")
            }
            seen.insert(version)
            highest = max(highest, version)
        }
        if applied.last != n {
            problems.append(
                "the client holds version \(applied.last.map(String.init) ?? "none"), not the newest published, \(n) "
                    + "(applied: \(Self.summary(applied)))")
        }
        return problems
    }

    /// Waits until the client has applied `version` or a later one; the seconds it took, or nil when
    /// `seconds` passed first.
    package func waitUntilHolding(_ version: Int, within seconds: TimeInterval) async -> TimeInterval? {
        let start = Date()
        let reached = Eventual<Void>()
        let already = state.withLock { state -> Bool in
            if let last = state.applied.last, last >= version { return true }
            state.waiters.append((version, reached))
            return false
        }
        if already { return 0 }
        guard await reached.value(within: seconds) != nil else { return nil }
        return Date().timeIntervalSince(start)
    }

    /// How many file descriptors the process has open now (the entries of `/proc/self/fd`, less the
    /// one the listing itself opens); 0 where there is no `/proc`.
    package static func openFileDescriptors() -> Int {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") else { return 0 }
        return max(0, entries.count - 1)
    }

    /// `1, 2, 3 … 40, 41` for a long list.
    private static func summary(_ versions: [Int]) -> String {
        guard versions.count > 12 else { return versions.map(String.init).joined(separator: ", ") }
        return (versions.prefix(5).map(String.init) + ["…"] + versions.suffix(5).map(String.init)).joined(separator: ", ")
    }
}
