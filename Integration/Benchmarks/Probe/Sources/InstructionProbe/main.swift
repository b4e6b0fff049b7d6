// Does one operation `count` times through the public API, as another package pays it, then prints a
// checksum so nothing is optimised away. `count.sh` runs it under callgrind at two counts and divides the
// difference, which cancels start-up. See Integration/Benchmarks/README.md, "Counting instructions".
import Foundation
import RemoteConfig
import ServiceContextAdapter
import ServiceContextModule
import TargetingFormat
import TestDoubles
import Workloads

/// A key no payload targets, beside the workload's targeted keys.
let plainKey = ConfigKey("plain_flag", default: false)

/// A hook that does nothing: what the client itself adds around an evaluation.
struct NoOpHook: EvaluationHook {}

/// A source that always answers one context, standing in for a request's.
struct FixedSource: EvaluationContextSource {
    let context: EvaluationContext
    var currentContext: EvaluationContext? { context }
}

/// A client over the targeting workload's 1,000 keys (three rules each) and `plainKey`.
func makeClient(_ configure: (RemoteConfigBuilder) -> RemoteConfigBuilder = { $0 }) throws -> RemoteConfigClient {
    var json = TargetingWorkload.json(count: 1_000)
    json.insert(contentsOf: #""values": {"plain_flag": true}, "#, at: json.index(after: json.startIndex))
    let keys: [any ConfigKeyRepresentable] =
        (0..<1_000).map { index in
            TargetingWorkload.isFlag(index)
                ? ConfigKey(TargetingWorkload.name(index), default: false) as any ConfigKeyRepresentable
                : ConfigKey(TargetingWorkload.name(index), default: "none")
        } + [plainKey]
    let client = try configure(
        RemoteConfigClient.builder(fetcher: InMemoryFetcher(json: json)).payloadFormat(TargetingJSONFormat())
            .context(TargetingWorkload.contexts[0]).register(keys)
    ).build()
    let refreshed = DispatchSemaphore(value: 0)
    Task {
        _ = try? await client.refresh()
        refreshed.signal()
    }
    refreshed.wait()
    return client
}

let arguments = CommandLine.arguments
guard arguments.count == 3, let count = Int(arguments[2]) else {
    print("usage: InstructionProbe MODE COUNT")
    exit(2)
}
let contexts = ServerWorkload.contexts(count: 1_024)
var checksum = 0
var cpuNanoseconds = 0

/// Runs `body` and adds its CPU time to `cpuNanoseconds`.
@MainActor func measured(_ body: () -> Void) {
    func now() -> Int {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return time.tv_sec * 1_000_000_000 + time.tv_nsec
    }
    let start = now()
    body()
    cpuNanoseconds += now() - start
}
switch arguments[1] {
case "plain":
    let client = try makeClient()
    measured {
        for _ in 0..<count where client[plainKey] { checksum += 1 }
    }
case "plain.targeted":
    let client = try makeClient()
    measured {
        for _ in 0..<count where client[ServerWorkload.checkout] { checksum += 1 }
    }
case "plain.hooked":
    let client = try makeClient { $0.hook(NoOpHook()) }
    measured {
        for _ in 0..<count where client[plainKey] { checksum += 1 }
    }
case "plain.contextSource":
    let client = try makeClient { $0.contextSource(FixedSource(context: contexts[5])) }
    measured {
        for _ in 0..<count where client[plainKey] { checksum += 1 }
    }
case "valueFor":
    let client = try makeClient()
    measured {
        for index in 0..<count where client[ServerWorkload.checkout, for: contexts[index & 1_023]] { checksum += 1 }
    }
case "detailsFor":
    let client = try makeClient()
    measured {
        for index in 0..<count where client.details(ServerWorkload.checkout, for: contexts[index & 1_023]).value {
            checksum += 1
        }
    }
case "serviceContext":
    let client = try makeClient { $0.contextSource(ServiceContextSource()) }
    let requests = contexts.map { context -> ServiceContext in
        var request = ServiceContext.topLevel
        request.evaluationContext = context
        return request
    }
    measured {
        for index in 0..<count {
            ServiceContext.withValue(requests[index & 1_023]) { if client[ServerWorkload.checkout] { checksum += 1 } }
        }
    }
case "exposure.repeat":
    let client = try makeClient { $0.reportingExposures() }
    measured {
        for _ in 0..<count where client[ServerWorkload.checkout] { checksum += 1 }
    }
case "contextChange":
    let client = try makeClient()
    measured {
        for index in 0..<count {
            checksum += client.updateContext { $0 = TargetingWorkload.contexts[(index + 1) % 2] }.count
        }
    }
default:
    print("unknown mode \(arguments[1])")
    exit(2)
}
print("checksum \(checksum), \(Double(cpuNanoseconds) / Double(count)) ns of CPU per operation")
