// ReadProbe: a tiny release-mode process for two measurements the benchmark suite makes.
//
//   ReadProbe read-timer [reads-per-batch]
//       Times warm synchronous reads of each primitive type (median of 31 batches) and prints
//       one line per type: `<type> <median ns per read>`.
//
// Build it in release (`swift build -c release --product ReadProbe`): a debug build measures the
// debug build.
import ConfigDomain
import ConfigPorts
import Foundation
import RemoteConfig
import TestDoubles

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Monotonic nanoseconds (the same clock in every process of the machine).
func monotonicNanoseconds() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
}

/// Keeps a value alive and opaque to the optimizer.
@inline(never)
func consume<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("ReadProbe: \(message)\n".utf8))
    exit(2)
}

// MARK: read-timer

func medianNanoseconds(batches: Int, reads: Int, _ body: (Int) -> Void) -> Double {
    var samples: [Double] = []
    samples.reserveCapacity(batches)
    body(reads)  // warm up
    for _ in 0..<batches {
        let start = monotonicNanoseconds()
        body(reads)
        samples.append(Double(monotonicNanoseconds() - start) / Double(reads))
    }
    samples.sort()
    return samples[samples.count / 2]
}

func readTimer(readsPerBatch: Int) async {
    let flag = ConfigKey("flag", default: false)
    let limit = ConfigKey("limit", default: 0)
    let ratio = ConfigKey("ratio", default: 0.0)
    let title = ConfigKey("title", default: "")
    var keys: [any ConfigKeyRepresentable] = [flag, limit, ratio, title]
    var json = #"{"flag": true, "limit": 42, "ratio": 0.5, "title": "hello""#
    for index in 0..<1_000 {
        keys.append(ConfigKey("filler_\(index)", default: index))
        json += #", "filler_\#(index)": \#(index + 1)"#
    }
    json += "}"
    let client: RemoteConfigClient
    do {
        client = try await RemoteConfigClient.builder(fetcher: InMemoryFetcher(json: json)).register(keys).build()
        try await client.refresh(force: true)
    } catch {
        fail("could not build the client: \(error)")
    }
    guard client[flag], client[limit] == 42, client[title] == "hello" else { fail("the client does not see the payload") }

    let batches = 31
    let bool = medianNanoseconds(batches: batches, reads: readsPerBatch) { n in
        var hits = 0
        for _ in 0..<n where client[flag] { hits &+= 1 }
        consume(hits)
    }
    let int = medianNanoseconds(batches: batches, reads: readsPerBatch) { n in
        var sum = 0
        for _ in 0..<n { sum &+= client[limit] }
        consume(sum)
    }
    let double = medianNanoseconds(batches: batches, reads: readsPerBatch) { n in
        var sum = 0.0
        for _ in 0..<n { sum += client[ratio] }
        consume(sum)
    }
    let string = medianNanoseconds(batches: batches, reads: readsPerBatch) { n in
        var count = 0
        for _ in 0..<n { count &+= client[title].utf8.count }
        consume(count)
    }
    print("Bool \(String(format: "%.2f", bool))")
    print("Int \(String(format: "%.2f", int))")
    print("Double \(String(format: "%.2f", double))")
    print("String \(String(format: "%.2f", string))")
}

// MARK: main

let arguments = CommandLine.arguments
switch arguments.count > 1 ? arguments[1] : "" {
case "read-timer":
    let reads = arguments.count > 2 ? Int(arguments[2]) ?? 1_000_000 : 1_000_000
    await readTimer(readsPerBatch: reads)
default:
    fail("usage: ReadProbe read-timer [reads-per-batch]")
}
