import ConfigDomain
import ConfigPorts
import Foundation
import TestSupport

/// A load generator for the Hummingbird example: keep-alive connections, each on a thread of its own,
/// asking `GET /flags` for users and countries drawn from a seeded generator, and recording what each
/// answer said and in which phase of the test its request started and ended.
enum FlagsLoad {
    /// One request: the user (nil: anonymous) and country (nil: none), sent as headers or as the query.
    struct Probe: Sendable, Hashable {
        var user: String?
        var country: String?
        var inHeaders: Bool

        /// The evaluation context the example builds from this request: the user as the targeting key,
        /// the country as the attribute `country` (see the example's README).
        var context: EvaluationContext {
            guard let user else { return .empty }
            return EvaluationContext(targetingKey: user, attributes: country.map { ["country": .string($0)] } ?? [:])
        }

        /// The request's path and headers.
        var request: (path: String, headers: [String: String]) {
            if inHeaders {
                var headers: [String: String] = [:]
                if let user { headers["X-User-ID"] = user }
                if let country { headers["X-Country"] = country }
                return ("/flags", headers)
            }
            var query: [String] = []
            if let user { query.append("user=\(user)") }
            if let country { query.append("country=\(country)") }
            return (query.isEmpty ? "/flags" : "/flags?" + query.joined(separator: "&"), [:])
        }
    }

    /// What one request got.
    struct Observation: Sendable {
        var probe: Probe
        /// The test's phase when the request was sent and when its answer was read.
        var startPhase: Int
        var endPhase: Int
        var status: Int
        /// The answer's JSON, nil when it did not parse.
        var body: ConfigValue?
        var rawBody: String
    }

    /// The phase of a test, read by every load thread: a number that only grows.
    final class Phase: Sendable {
        private let value = Locked(0)
        /// The current phase.
        var current: Int { value.withLock { $0 } }
        /// Moves to `phase`.
        func set(_ phase: Int) { value.withLock { $0 = phase } }
    }

    /// A count shared by the load threads, with a wait for it to reach a target.
    final class Progress: Sendable {
        private struct State {
            var count = 0
            var abandoned = false
            var waiters: [(target: Int, reached: Eventual<Void>)] = []
        }

        private let state = Locked(State())

        /// Requests answered so far.
        var count: Int { state.withLock { $0.count } }

        /// Counts one answered request.
        func increment() {
            let reached = state.withLock { state -> [Eventual<Void>] in
                state.count += 1
                let count = state.count
                let due = state.waiters.filter { $0.target <= count }.map(\.reached)
                state.waiters.removeAll { $0.target <= count }
                return due
            }
            for eventual in reached { eventual.set(()) }
        }

        /// Ends every wait, now and later, with false: a worker failed and the count may never be reached.
        func abandon() {
            let waiting = state.withLock { state -> [Eventual<Void>] in
                state.abandoned = true
                defer { state.waiters = [] }
                return state.waiters.map(\.reached)
            }
            for eventual in waiting { eventual.set(()) }
        }

        /// Returns once `target` requests were answered; false when the load was abandoned or `timeout`
        /// seconds pass first (a safety net).
        func wait(for target: Int, timeout: TimeInterval) async -> Bool {
            let reached = Eventual<Void>()
            let already = state.withLock { state -> Bool? in
                if state.count >= target { return true }
                if state.abandoned { return false }
                state.waiters.append((target, reached))
                return nil
            }
            if let already { return already }
            guard await reached.value(within: timeout) != nil else { return false }
            return count >= target
        }
    }

    /// A seeded SplitMix64 generator: the same seed draws the same probes on every run.
    struct SeededGenerator: RandomNumberGenerator {
        private var state: UInt64

        init(seed: UInt64) { state = seed }

        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// The countries probes come from; nil sends none.
    static let countries: [String?] = ["DE", "AT", "CH", "FR", "BE", "US", "GB", "JP", "BR", nil]

    /// The next probe of `generator`: one request in twenty is anonymous.
    static func probe(_ generator: inout SeededGenerator) -> Probe {
        let anonymous = Int.random(in: 0..<20, using: &generator) == 0
        let user = "user-\(Int.random(in: 0..<100_000, using: &generator))"
        let country = countries.randomElement(using: &generator) ?? nil
        return Probe(user: anonymous ? nil : user, country: country, inHeaders: Bool.random(using: &generator))
    }

    /// How a worker knows it has done enough: given its own observations so far.
    typealias Enough = @Sendable (_ sent: Int, _ sentInLastPhase: Int) -> Bool

    /// Runs `workers` connections to `127.0.0.1:port` at once, worker `i` drawing from the seed
    /// `seed + i`, each until `enough` says so or `cap` requests; returns every observation, or the
    /// first worker's error.
    static func run(
        port: UInt16, workers: Int, seed: UInt64, phase: Phase, lastPhase: Int, progress: Progress, cap: Int,
        enough: @escaping Enough
    ) async throws -> [Observation] {
        let results = (0..<workers).map { index in
            let done = Eventual<Result<[Observation], any Error>>()
            Thread.detachNewThread {
                let result = Result {
                    try work(
                        port: port, seed: seed &+ UInt64(index), phase: phase, lastPhase: lastPhase,
                        progress: progress, cap: cap, enough: enough)
                }
                if case .failure = result { progress.abandon() }
                done.set(result)
            }
            return done
        }
        var observations: [Observation] = []
        for result in results {
            observations += try await result.value().get()
        }
        return observations
    }

    /// One worker's loop, on its own thread.
    private static func work(
        port: UInt16, seed: UInt64, phase: Phase, lastPhase: Int, progress: Progress, cap: Int, enough: Enough
    ) throws -> [Observation] {
        let connection = try KeepAliveHTTPConnection(port: port)
        var generator = SeededGenerator(seed: seed)
        var observations: [Observation] = []
        var inLastPhase = 0
        while observations.count < cap, !enough(observations.count, inLastPhase) {
            let probe = probe(&generator)
            let (path, headers) = probe.request
            let start = phase.current
            let answer = try connection.send("GET", path, headers: headers)
            let end = phase.current
            let text = String(decoding: answer.body, as: UTF8.self)
            observations.append(
                Observation(
                    probe: probe, startPhase: start, endPhase: end, status: answer.status,
                    body: try? JSONParser().parse(text), rawBody: text))
            if start == lastPhase { inLastPhase += 1 }
            progress.increment()
        }
        return observations
    }
}
