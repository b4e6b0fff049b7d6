import Testing

/// Starts one etcd cluster for a whole suite and stops it (and deletes its folder) after the
/// suite's last test, whatever happens; tests read it from ``current``.
///
/// ```swift
/// @Suite(.enabled(if: EtcdCluster.isAvailable, EtcdCluster.skipReason), EtcdClusterTrait())
/// struct MyEtcdTests {
///     @Test func something() async throws { let cluster = try EtcdClusterTrait.cluster() … }
/// }
/// ```
struct EtcdClusterTrait: SuiteTrait, TestScoping {
    /// The users of a cluster started with authentication on.
    enum Auth {
        static let rootPassword = "root-pw-7c1e"
        /// A user with read-write access to the keys under ``prefix`` only.
        static let user = "app"
        static let password = "app-pw-93d2"
        static let prefix = "/auth/"
    }

    /// The cluster of the suite running in this task.
    @TaskLocal static var current: EtcdCluster?

    /// Whether the suite's cluster has authentication turned on (see ``Auth``).
    var authentication = false

    /// The suite's cluster, or a failure naming the missing trait.
    static func cluster() throws -> EtcdCluster {
        try #require(current, "the suite needs the EtcdClusterTrait() trait")
    }

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        guard EtcdCluster.isAvailable else { return try await function() }
        try await EtcdCluster.with { cluster in
            if authentication {
                try await cluster.enableAuth(
                    rootPassword: Auth.rootPassword, user: Auth.user, password: Auth.password, prefix: Auth.prefix)
            }
            return try await Self.$current.withValue(cluster) { try await function() }
        }
    }
}
