import ConfigDomain
import Foundation
import TestSupport
import Testing

/// Push under network faults on the etcd path: a real one-member etcd, a ``FaultProxy`` in front of
/// the watch (the fetcher reads etcd directly), and every fault the proxy knows.
///
/// The watcher's idle timeout plays the heartbeat's part (etcd sends nothing on a quiet watch, so a
/// quiet watch is reopened each timeout). Its connection reports are not checked here.
@Suite(
    "Push under faults: an etcd watch behind a fault proxy",
    .enabled(if: EtcdCluster.isAvailable, EtcdCluster.skipReason), OneMemberEtcdTrait())
struct PushFaultEtcdTests {
    @Test("etcd: the client recovers from each fault with every invariant held", arguments: FaultProxy.Fault.all)
    func etcd(_ fault: FaultProxy.Fault) async throws {
        let cluster = try #require(OneMemberEtcdTrait.current, "the suite starts a one-member cluster")
        try await PushRig.with(.etcd, etcd: cluster) { rig in
            try await PushFaultScenario(rig: rig, fault: fault, reportsConnection: false).run()
        }
    }
}

/// One single-member etcd for the whole suite (its cases use keys of their own), stopped after the
/// suite's last case, whatever happens.
struct OneMemberEtcdTrait: SuiteTrait, TestScoping {
    /// The cluster of the suite running in this task.
    @TaskLocal static var current: EtcdCluster?

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        guard EtcdCluster.isAvailable else { return try await function() }
        try await EtcdCluster.with(size: 1) { cluster in
            try await Self.$current.withValue(cluster) { try await function() }
        }
    }
}
