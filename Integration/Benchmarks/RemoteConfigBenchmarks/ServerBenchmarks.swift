import Benchmark
import BenchmarkWorkloads
import ConfigDomain
import Foundation
import RemoteConfig
import ServiceContextAdapter
import ServiceContextModule
import TargetingFormat
import TestDoubles

/// A server's reads: a targeted key evaluated for a context given with each call (a request's user),
/// by one thread and by two at once. The key is `ServerWorkload.checkout`, a `static let` declared in
/// another module, with three rules, read through `client[key, for: context]` from a client holding
/// `TargetingWorkload`'s 1,000-key payload; each call takes the next of 1,024 requests' contexts.
func registerServerBenchmarks() {
    Benchmark(
        "server.valueForContext.Bool.3rules",
        configuration: Suite.configuration(scaling: .kilo, maxDuration: .seconds(2), maxIterations: 1_000)
    ) { benchmark, fixture in
        let client = fixture.client
        let contexts = fixture.contexts
        var index = 0
        Suite.measuringCPU(benchmark) {
            for _ in benchmark.scaledIterations {
                blackHole(client[ServerWorkload.checkout, for: contexts[index]])
                index = (index + 1) & (contexts.count - 1)
            }
        }
    } setup: {
        try await ServerFixture.make()
    }

    // The same plain read as `read.warm.Bool.targetedKey`, from a client that reports exposures: every read then
    // evaluates with its details and checks the exposure set. A client without exposures keeps the plain read.
    Benchmark(
        "read.warm.Bool.targetedKey.reportingExposures",
        configuration: Suite.configuration(scaling: .kilo, maxDuration: .seconds(2), maxIterations: 1_000)
    ) { benchmark, fixture in
        let client = fixture.client
        Suite.measuringCPU(benchmark) {
            for _ in benchmark.scaledIterations { blackHole(client[ServerWorkload.checkout]) }
        }
    } setup: {
        try await ServerFixture.make(reportingExposures: true)
    }

    // The same evaluations through the request's context: each read a request of its own, a plain read inside
    // `ServiceContext.withValue` from a client built with `.contextSource(ServiceContextSource())`, cycling through
    // the same 1,024 contexts as the explicit call (a request that reads one flag: the most the task-local costs).
    Benchmark(
        "server.serviceContextRead.Bool.3rules",
        configuration: Suite.configuration(scaling: .kilo, maxDuration: .seconds(2), maxIterations: 1_000)
    ) { benchmark, fixture in
        let client = fixture.client
        let requests = fixture.requests
        var index = 0
        Suite.measuringCPU(benchmark) {
            for _ in benchmark.scaledIterations {
                ServiceContext.withValue(requests[index]) { blackHole(client[ServerWorkload.checkout]) }
                index = (index + 1) & (requests.count - 1)
            }
        }
    } setup: {
        try await ServerFixture.make(contextSource: true)
    }

    // What the middleware pays once per request whatever it reads: `ServiceContext.withValue` with the request's
    // context, and nothing read but the context itself. The difference to the benchmark above is the read's own cost.
    Benchmark(
        "server.serviceContext.withValueOnly",
        configuration: Suite.configuration(scaling: .kilo, maxDuration: .seconds(2), maxIterations: 1_000)
    ) { benchmark, fixture in
        let requests = fixture.requests
        var index = 0
        Suite.measuringCPU(benchmark) {
            for _ in benchmark.scaledIterations {
                ServiceContext.withValue(requests[index]) { blackHole(ServiceContext.current != nil) }
                index = (index + 1) & (requests.count - 1)
            }
        }
    } setup: {
        try await ServerFixture.make()
    }

    let total = 1_000_000
    let evaluationsPerSecond = BenchmarkMetric.custom("evaluations/s (K)", polarity: .prefersLarger, useScalingFactor: false)
    for threads in [1, 2] {
        Benchmark(
            "server.valueForContext.parallel.\(threads)\(threads == 1 ? "thread" : "threads")",
            configuration: Suite.configuration(
                scaling: .one, maxDuration: .seconds(3), maxIterations: 50, extra: [evaluationsPerSecond: Suite.unchecked])
        ) { benchmark, fixture in
            let client = fixture.client
            let contexts = fixture.contexts
            let work = WorkCounter(total: total)
            let start = Suite.monotonicNanoseconds()
            Suite.measuringCPU(benchmark, .process) {
                let done = DispatchSemaphore(value: 0)
                for thread in 0..<threads {
                    Thread.detachNewThread {
                        var index = thread * 512
                        while let count = work.take() {
                            for _ in 0..<count {
                                blackHole(client[ServerWorkload.checkout, for: contexts[index]])
                                index = (index + 1) & (contexts.count - 1)
                            }
                        }
                        done.signal()
                    }
                }
                for _ in 0..<threads { done.wait() }
            }
            let elapsed = max(1, Suite.monotonicNanoseconds() - start)
            benchmark.measurement(evaluationsPerSecond, total * 1_000_000 / elapsed)
        } setup: {
            try await ServerFixture.make()
        }
    }
}

/// A client holding `TargetingWorkload`'s payload (1,000 keys, three rules each), and 1,024 requests' contexts.
struct ServerFixture: Sendable {
    let client: RemoteConfigClient
    let contexts: [EvaluationContext]

    /// Each of ``contexts`` as a request's `ServiceContext`, as a middleware sets it.
    var requests: [ServiceContext] {
        contexts.map { user in
            var request = ServiceContext.topLevel
            request.evaluationContext = user
            return request
        }
    }

    static func make(reportingExposures: Bool = false, contextSource: Bool = false) async throws -> ServerFixture {
        var builder = RemoteConfigClient.builder(fetcher: InMemoryFetcher(json: TargetingWorkload.json(count: 1_000)))
        if contextSource { builder = builder.contextSource(ServiceContextSource()) }
        let client =
            try builder
            .payloadFormat(TargetingJSONFormat())
            .context(TargetingWorkload.contexts[0])
            .reportingExposures(reportingExposures)
            .register(ServerWorkload.checkout, ServerWorkload.copy)
            .build()
        _ = try await client.refresh()
        return ServerFixture(client: client, contexts: ServerWorkload.contexts(count: 1_024))
    }
}
