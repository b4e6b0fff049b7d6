import ConfigDomain
import Foundation
import RemoteConfig
import TestSupport
import Testing

/// Random faults for about a minute on every push path at once, while the servers publish versions:
/// every invariant must hold at the end, with nothing leaked.
///
/// `RC_SOAK_FAULTS` sets how many faults (default 200, spread over the paths, one every 0.3 s in all:
/// 200 take about a minute and `make test-soak`'s 2,000 about ten), and `RC_SOAK_SEED` the seed
/// (printed, so a failing run can be replayed; random by default).
///
/// What each path leaves open is counted by address (the client's connections through its proxy, the
/// proxy's own sockets), since other suites open and close descriptors and threads in the same process
/// meanwhile. The whole process's descriptors and threads are printed; they are bounded only when the
/// soak runs alone (`make test-soak` sets `RC_SOAK_ALONE=1`), where they are the soak's own.
@Suite("Push soak: random faults on SSE, OFREP and etcd at once")
struct PushSoakTests {
    /// What one path went through.
    private struct PathReport: Sendable {
        var path: PushPath
        var faults: [String: Int] = [:]
        var published = 0
        var applied = 0
        /// The longest time from the end of a fault to the client holding the version newest then.
        var worstRecovery: TimeInterval = 0
        var violations: [String] = []
        var leftOpen = (clientConnections: 0, proxySockets: 0)
    }

    private static var settings: (faults: Int, seed: UInt64) {
        let environment = ProcessInfo.processInfo.environment
        let faults = environment["RC_SOAK_FAULTS"].flatMap { Int($0) } ?? 200
        let seed = environment["RC_SOAK_SEED"].flatMap { UInt64($0) } ?? UInt64.random(in: 1...999_999_999)
        return (max(1, faults), seed)
    }

    /// How many threads the process runs now (`/proc/self/task`).
    private static func threads() -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count) ?? 0
    }

    @Test("random faults while versions are published: every invariant at zero violations, nothing leaked")
    func soak() async throws {
        let (faults, seed) = Self.settings
        print("push soak: \(faults) faults, seed \(seed) (RC_SOAK_FAULTS=\(faults) RC_SOAK_SEED=\(seed) replays this run)")
        let descriptorsBefore = VersionLedger.openFileDescriptors()
        let threadsBefore = Self.threads()
        let started = Date()
        let reports: [PathReport]
        if EtcdCluster.isAvailable {
            reports = try await EtcdCluster.with(size: 1) { cluster in
                try await Self.soak(paths: PushPath.allCases, faults: faults, seed: seed, etcd: cluster)
            }
        } else {
            reports = try await Self.soak(paths: [.sse, .ofrep], faults: faults, seed: seed, etcd: nil)
        }
        let descriptorsAfter = VersionLedger.openFileDescriptors()
        let threadsAfter = Self.threads()

        print(String(format: "push soak: %.0f s, seed %llu", Date().timeIntervalSince(started), seed))
        for report in reports {
            let kinds = report.faults.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            print(
                "  \(report.path): \(report.faults.values.reduce(0, +)) faults (\(kinds)); versions published "
                    + "\(report.published), applied \(report.applied); worst recovery to the newest version "
                    + String(format: "%.2f s (bound %.1f s)", report.worstRecovery, PushTiming.bound)
                    + "; violations \(report.violations.count)")
            #expect(report.violations == [], "\(report.path), seed \(seed)")
            #expect(report.leftOpen.clientConnections == 0, "\(report.path): connections left open, seed \(seed)")
            #expect(report.leftOpen.proxySockets == 0, "\(report.path): proxy sockets left open, seed \(seed)")
        }
        print(
            "  file descriptors \(descriptorsBefore) before, \(descriptorsAfter) after; threads \(threadsBefore) before, \(threadsAfter) after"
        )
        if ProcessInfo.processInfo.environment["RC_SOAK_ALONE"] == "1" {
            // Alone in the process, a leak per fault would pass these by far (a soak has hundreds of faults).
            #expect(descriptorsAfter - descriptorsBefore < 48, "file descriptors grew during the soak, seed \(seed)")
            #expect(threadsAfter - threadsBefore < 24, "threads grew during the soak, seed \(seed)")
        }
    }

    /// The time between two faults, over all paths.
    private static let spacing: TimeInterval = 0.3

    /// Runs the soak on `paths` at once, `faults` spread over them; returns what each went through.
    private static func soak(paths: [PushPath], faults: Int, seed: UInt64, etcd: EtcdCluster?) async throws -> [PathReport] {
        try await withThrowingTaskGroup(of: PathReport.self) { group in
            for (index, path) in paths.enumerated() {
                let share = faults / paths.count + (index < faults % paths.count ? 1 : 0)
                group.addTask {
                    try await PushRig.with(path, etcd: etcd) { rig in
                        try await soak(
                            rig, faults: share, kinds: FaultProxy.Fault.all, every: spacing * Double(paths.count), seed: seed &+ UInt64(index))
                    }
                }
            }
            var reports: [PathReport] = []
            for try await report in group { reports.append(report) }
            return reports.sorted { $0.path.rawValue < $1.path.rawValue }
        }
    }

    /// Injects `faults` random faults of `kinds` into `rig`, one every `every` seconds, while its server
    /// publishes a version every 0.1 s.
    private static func soak(
        _ rig: PushRig, faults: Int, kinds: [FaultProxy.Fault], every slot: TimeInterval, seed: UInt64
    ) async throws -> PathReport {
        var report = PathReport(path: rig.path)
        try #require(
            await rig.ledger.waitUntilHolding(1, within: loopbackDeadline) != nil, "\(rig.path): version 1 never arrived")
        let publishing = Task {
            while !Task.isCancelled {
                _ = try? await rig.publish()
                try? await Task.sleep(nanoseconds: 100_000_000)  // the server's pace of publishing
            }
        }
        var generator = FaultProxy.SeededGenerator(seed: seed)
        for _ in 0..<faults {
            let start = Date()
            let fault = FaultProxy.Fault.random(using: &generator, among: kinds)
            let outage = 0.05 + Double(generator.next() % 300) / 1000
            report.faults[fault.kind, default: 0] += 1
            await rig.proxy.apply(fault)
            try await Task.sleep(nanoseconds: UInt64(outage * 1_000_000_000))  // how long the outage lasts
            await rig.proxy.apply(.pass)
            let healed = Date()
            let target = rig.published
            if await rig.ledger.waitUntilHolding(target, within: PushTiming.bound + PushTiming.loadAllowance) == nil {
                report.violations.append("after a \(fault) fault, version \(target) did not arrive within the deadline")
                break
            }
            report.worstRecovery = max(report.worstRecovery, Date().timeIntervalSince(healed))
            let rest = slot - Date().timeIntervalSince(start)
            if rest > 0 { try await Task.sleep(nanoseconds: UInt64(rest * 1_000_000_000)) }  // healthy until the next fault
        }
        publishing.cancel()
        _ = await publishing.value
        let newest = try await rig.publish()
        if await rig.ledger.waitUntilHolding(newest, within: PushTiming.bound + PushTiming.loadAllowance) == nil {
            report.violations.append("the final version \(newest) did not arrive")
        }
        report.published = newest
        report.applied = rig.ledger.applied.count
        report.violations += rig.ledger.violations(publishedUpTo: newest)
        if rig.path != .etcd,
            !(await rig.trail.waitFor(.ready, from: max(0, rig.trail.states.count - 1), within: loopbackDeadline))
        {
            report.violations.append("the client was not READY at the end: \(rig.trail.states.suffix(3))")
        }
        report.leftOpen = await rig.stop()
        return report
    }
}
