import ConfigDomain
import ConfigPorts
import EtcdAdapter
import Foundation
import HTTPAdapter
import OFREPAdapter
import RemoteConfig
import SSEAdapter
import TestSupport

/// The push paths the fault tests break.
enum PushPath: String, Sendable, CaseIterable, CustomStringConvertible {
    /// `SSEChangeSignalSource` on `/events`, fetching `/config.json`.
    case sse
    /// `OFREPFetcher` and its event source.
    case ofrep
    /// `EtcdFetcher` and `EtcdWatcher` on a real etcd.
    case etcd

    var description: String { rawValue }
}

/// The timing every push fault test uses, and the liveness bound it implies.
enum PushTiming {
    /// How often the server sends a heartbeat comment on an event stream.
    static let serverHeartbeat: TimeInterval = 0.2
    /// The client's heartbeat timeout (SSE, OFREP) and etcd watch idle timeout.
    static let heartbeatTimeout: TimeInterval = 1
    /// The reconnect backoff: first wait and longest wait.
    static let backoffInitial: TimeInterval = 0.05
    static let backoffMaximum: TimeInterval = 0.5
    /// ARCHITECTURE.md's liveness bound: after a fault heals, the newest version within the backoff's
    /// maximum plus one heartbeat.
    static let bound = backoffMaximum + heartbeatTimeout
    /// What a loaded machine may add to the bound: `make test` runs some 1,400 tests on two cores at
    /// once. A deadline for the assertion; the time printed is the measurement.
    static let loadAllowance: TimeInterval = 8
}

/// Where a rig's versions live: the in-process push server, or an etcd key.
private enum Backend: Sendable {
    case http(FaultProxy.PushServer)
    case etcd(EtcdCluster, key: String, published: Locked<Int>)
}

/// One client under test: a real server, a ``FaultProxy`` in front of its push stream (fetches go
/// straight to the server), the client, a ``VersionLedger`` fed with every version the client
/// activates, and the provider states it reports.
final class PushRig: Sendable {
    static let revision = ConfigKey("revision", default: -1)

    let path: PushPath
    let proxy: FaultProxy
    let client: RemoteConfigClient
    let ledger: VersionLedger
    let trail: ProviderStateLog
    private let backend: Backend
    private let feeding: Task<Void, Never>
    private let stopped = Locked(false)

    private init(
        path: PushPath, proxy: FaultProxy, client: RemoteConfigClient, ledger: VersionLedger, trail: ProviderStateLog,
        backend: Backend, feeding: Task<Void, Never>
    ) {
        self.path = path
        self.proxy = proxy
        self.client = client
        self.ledger = ledger
        self.trail = trail
        self.backend = backend
        self.feeding = feeding
    }

    /// Runs `body` with a rig on `path` (`etcd` needs a cluster), and stops it afterwards, whatever happens.
    ///
    /// - Parameters:
    ///   - heartbeat: whether the client drops a connection silent past ``PushTiming/heartbeatTimeout``.
    ///   - polling: the client's periodic refresh interval, if any.
    @discardableResult
    static func with<T: Sendable>(
        _ path: PushPath, etcd: EtcdCluster? = nil, heartbeat: Bool = true, polling: TimeInterval? = nil,
        _ body: (PushRig) async throws -> T
    ) async throws -> T {
        let rig = try await start(path, etcd: etcd, heartbeat: heartbeat, polling: polling)
        do {
            let result = try await body(rig)
            _ = await rig.stop()
            return result
        } catch {
            _ = await rig.stop()
            throw error
        }
    }

    private static func start(_ path: PushPath, etcd: EtcdCluster?, heartbeat: Bool, polling: TimeInterval?) async throws
        -> PushRig
    {
        let backend: Backend
        let upstream: UInt16
        switch path {
        case .sse, .ofrep:
            let server = try await FaultProxy.PushServer.start(heartbeat: PushTiming.serverHeartbeat)
            backend = .http(server)
            upstream = server.port
        case .etcd:
            guard let etcd, let member = etcd.endpoints.first?.port, let port = UInt16(exactly: member) else {
                throw EtcdClusterError("the etcd path needs a running cluster")
            }
            let key = "/rc-push-fault/\(UUID().uuidString)/config"
            try await etcd.put(key, #"{"revision": 1}"#)
            backend = .etcd(etcd, key: key, published: Locked(1))
            upstream = port
        }
        let proxy: FaultProxy
        do {
            proxy = try FaultProxy.start(upstreamPort: upstream)
        } catch {
            if case .http(let server) = backend { await server.stop() }
            throw error
        }
        do {
            let ledger = VersionLedger()
            let client = try makeClient(path, backend: backend, proxy: proxy, heartbeat: heartbeat, polling: polling)
            let trail = ProviderStateLog(client)
            let feeding = Task {
                for await view in client.watch() where view.update?.cause == .refresh {
                    ledger.record(view[Self.revision])
                }
            }
            let rig = PushRig(
                path: path, proxy: proxy, client: client, ledger: ledger, trail: trail, backend: backend, feeding: feeding)
            if path == .ofrep { _ = try? await client.refresh() }  // the first evaluation names the event stream
            return rig
        } catch {
            await proxy.stop()
            if case .http(let server) = backend { await server.stop() }
            throw error
        }
    }

    private static func makeClient(
        _ path: PushPath, backend: Backend, proxy: FaultProxy, heartbeat: Bool, polling: TimeInterval?
    ) throws -> RemoteConfigClient {
        let timeout = heartbeat ? PushTiming.heartbeatTimeout : nil
        var builder: RemoteConfigBuilder
        switch (path, backend) {
        case (.sse, .http(let server)):
            let events = try SSEChangeSignalSource(
                url: proxy.url("/events"),
                configuration: .init(
                    signalsOnConnect: false, heartbeatTimeout: timeout,
                    reconnect: ReconnectPolicy(
                        initial: PushTiming.backoffInitial, multiplier: 2, maximum: PushTiming.backoffMaximum)))
            builder = RemoteConfigClient.builder(fetcher: try HTTPFetcher(url: server.http.url("/config.json"))).push(events)
        case (.ofrep, .http(let server)):
            server.nameStreams(at: proxy.url("/"))
            let fetcher = try OFREPFetcher(endpoint: server.http.url("/"))
            let events = fetcher.eventSource(
                configuration: .init(
                    initialDelay: PushTiming.backoffInitial, maxDelay: PushTiming.backoffMaximum, heartbeatTimeout: timeout))
            builder = RemoteConfigClient.builder(fetcher: fetcher).payloadFormat(OFREPFormat()).push(events)
        case (.etcd, .etcd(let cluster, let key, _)):
            let layout = EtcdLayout.document(key: key)
            let direct = EtcdConnection(endpoints: cluster.endpoints, requestTimeout: 2)
            // Its request timeout bounds how long a watch that never starts is waited for: one heartbeat too.
            let proxied = EtcdConnection(
                endpoints: [proxy.url("")], requestTimeout: PushTiming.heartbeatTimeout,
                watchIdleTimeout: timeout,
                reconnectDelay: PushTiming.backoffInitial...PushTiming.backoffMaximum)
            builder = RemoteConfigClient.builder(fetcher: try EtcdFetcher(connection: direct, layout: layout))
                .push(try EtcdWatcher(connection: proxied, layout: layout))
        default:
            throw EtcdClusterError("no client for the \(path) path on this backend")
        }
        return try builder.register(Self.revision).periodicRefresh(every: polling).build()
    }

    /// The newest version published.
    var published: Int {
        switch backend {
        case .http(let server): server.version
        case .etcd(_, _, let published): published.current
        }
    }

    /// Publishes the next version on the server; returns it.
    @discardableResult
    func publish() async throws -> Int {
        switch backend {
        case .http(let server):
            return server.publish()
        case .etcd(let cluster, let key, let published):
            let next = published.withLock { $0 + 1 }
            try await cluster.put(key, #"{"revision": \#(next)}"#)
            published.withLock { $0 = next }
            return next
        }
    }

    /// Stops the client, then waits (a deadline, never a sleep) until the proxy has seen it close every
    /// connection it opened, then stops the proxy and the server. Returns the client's connections left
    /// open and the proxy's sockets left open: both 0 for a client and a proxy that leak nothing.
    func stop() async -> (clientConnections: Int, proxySockets: Int) {
        guard
            stopped.withLock({ stopped in
                defer { stopped = true }; return !stopped
            })
        else { return (0, 0) }
        await client.stop()
        feeding.cancel()
        _ = await proxy.waitUntil(within: 20) { $0.open == 0 }
        let open = proxy.counters.open
        await proxy.stop()
        if case .http(let server) = backend { await server.stop() }
        return (open, proxy.counters.sockets)
    }
}
