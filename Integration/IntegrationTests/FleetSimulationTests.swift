import ConfigDomain
import ConfigPorts
import Foundation
import RemoteConfig
import TestDoubles
import Testing

/// 10,000 real clients (the real builder, scheduler and ``BackoffPolicy``) poll one simulated
/// server every 60 s on one manual clock; the server goes down for 10 minutes, then comes back.
///
/// Time moves one simulated second at a time, and each step waits until every client woken by it
/// is asleep again, so the run is deterministic (the jitter comes from seeded generators) and
/// takes no wall time beyond the work itself.
@Suite("Fleet simulation")
struct FleetSimulationTests {
    static let clients = 10_000
    static let interval: TimeInterval = 60
    /// Simulated seconds: clients start over the first minute, the server is down from `outage.lowerBound` to `outage.upperBound`.
    static let outage = 300..<900
    static let end = 1800

    @Test("after a 10-minute outage, the request peak stays within 1.2× the steady rate")
    func outageAndRecovery() async throws {
        let clock = ManualClock()
        let start = clock.now()
        let server = FleetServer(clock: clock, start: start, outage: Self.outage)
        let key = ConfigKey("fleet_flag", default: false)
        var clients: [RemoteConfigClient] = []
        clients.reserveCapacity(Self.clients)
        for second in 0..<Self.end {
            // Clients start evenly over the first minute, as a fleet's phases are spread.
            while clients.count < Self.clients, Double(clients.count) * Self.interval / Double(Self.clients) < Double(second + 1)
            {
                let generator = Locked(SplitMix64(seed: UInt64(clients.count + 1)))
                let client = try RemoteConfigClient.builder(fetcher: FleetFetcher(id: clients.count, server: server))
                    .clock(clock).periodicRefresh(every: Self.interval).register(key)
                    .jitter { generator.withLock { $0.nextUnit() } }
                    .build()
                clients.append(client)
            }
            await clock.waitForSleepers(count: clients.count)
            clock.advance(by: 1)
            await clock.waitForSleepers(count: clients.count)
        }
        for client in clients { await client.stop() }

        let counts = server.counts
        let steady = Array(counts[120..<Self.outage.lowerBound])
        let after = Array(counts[Self.outage.upperBound..<Self.end])
        let steadyRate = Double(steady.map(\.requests).reduce(0, +)) / Double(steady.count)
        let peakSecond = after.map(\.requests).max() ?? 0
        let peakOffset = after.firstIndex { $0.requests == peakSecond } ?? 0
        let firstMinute = after.prefix(60).map(\.requests)
        let window = 10
        let steadyWindow = steadyRate * Double(window)
        let windows = stride(from: 0, to: after.count - window + 1, by: 1).map { offset in
            after[offset..<(offset + window)].map(\.requests).reduce(0, +)
        }
        let peakWindow = windows.max() ?? 0
        let answered = after.map { $0.notModified + $0.modified }.reduce(0, +)
        let notModified = after.map(\.notModified).reduce(0, +)
        let outageRequests = counts[Self.outage].map(\.requests).reduce(0, +)
        let recoveredAt = server.lastFirstSuccessAfterOutage.map { $0 - Self.outage.upperBound }
        print(
            """
            Fleet simulation (\(Self.clients) clients, \(Int(Self.interval)) s polls, \(Self.outage.count / 60) min outage):
              steady rate \(String(format: "%.1f", steadyRate)) requests/s
              after recovery: peak second \(peakSecond) (\(String(format: "%.2f", Double(peakSecond) / steadyRate))×), \
            \(peakOffset) s after the server returned; peak 10 s window \(peakWindow) (\(String(format: "%.2f", Double(peakWindow) / steadyWindow))×)
              first minute after recovery, per second: \(firstMinute.map(String.init).joined(separator: " "))
              during the outage: \(outageRequests) failed requests (\(String(format: "%.1f", Double(outageRequests) / Double(Self.outage.count))) /s)
              304 share after recovery: \(String(format: "%.1f", 100 * Double(notModified) / Double(max(answered, 1))))% \
            of \(answered) answers; every client back \(recoveredAt.map { "\($0) s" } ?? "never") after the server
            """)
        #expect(abs(steadyRate - Double(Self.clients) / Self.interval) < 1)
        #expect(Double(peakWindow) <= 1.2 * steadyWindow)
        #expect(recoveredAt != nil)
        #expect(Double(notModified) / Double(max(answered, 1)) > 0.9)
    }
}

/// Requests per simulated second.
struct SecondCount: Sendable {
    var requests = 0
    var notModified = 0
    var modified = 0
}

/// One server for the whole fleet: a fixed payload, 304 for a client holding it, down during the outage.
final class FleetServer: Sendable {
    private struct State {
        var counts = [SecondCount](repeating: SecondCount(), count: FleetSimulationTests.end + 120)
        var failedSinceOutage: Set<Int> = []
        var lastFirstSuccess: Int?
    }

    private let clock: ManualClock
    private let start: Date
    private let outage: Range<Int>
    private let payload = Data(#"{"fleet_flag": true}"#.utf8)
    private let etag = "\"fleet-v1\""
    private let state = Locked(State())

    init(clock: ManualClock, start: Date, outage: Range<Int>) {
        self.clock = clock
        self.start = start
        self.outage = outage
    }

    /// The counts per simulated second.
    var counts: [SecondCount] { state.withLock { $0.counts } }

    /// The second at which the last client that failed during the outage first succeeded again.
    var lastFirstSuccessAfterOutage: Int? { state.withLock { $0.failedSinceOutage.isEmpty ? $0.lastFirstSuccess : nil } }

    func answer(_ request: FetchRequest, from client: Int) throws(FetchError) -> FetchResult {
        let second = Int(clock.now().timeIntervalSince(start))
        let down = outage.contains(second)
        let result: FetchResult? =
            down
            ? nil
            : request.validators.etag == etag
                ? .notModified(Validators(etag: etag))
                : .modified(FetchedPayload(bytes: payload, validators: Validators(etag: etag), source: "fleet"))
        state.withLock { state in
            guard state.counts.indices.contains(second) else { return }
            state.counts[second].requests += 1
            switch result {
            case .notModified?: state.counts[second].notModified += 1
            case .modified?: state.counts[second].modified += 1
            case nil: state.failedSinceOutage.insert(client)
            }
            if result != nil, state.failedSinceOutage.remove(client) != nil { state.lastFirstSuccess = second }
        }
        guard let result else { throw FetchError(.transport, retry: .backoff, message: "connection refused (simulated outage)") }
        return result
    }
}

/// A client's fetcher: asks the fleet server, saying which client it is.
struct FleetFetcher: ConfigFetcher {
    let id: Int
    let server: FleetServer

    func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchResult { try server.answer(request, from: id) }
}

/// A small seeded generator (SplitMix64), so every run draws the same jitter.
struct SplitMix64: Sendable {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    /// The next number in `0..<1`.
    mutating func nextUnit() -> Double {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return Double(z >> 11) / Double(1 << 53)
    }
}
