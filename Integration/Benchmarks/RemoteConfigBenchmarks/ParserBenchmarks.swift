import Benchmark
import BenchmarkWorkloads
import ConfigDomain
import Foundation

/// Our `JSONParser` against `JSONSerialization` and `JSONDecoder` on the same 1,000-key payload.
///
/// Besides time and mallocs, each reports `MB/s`: payload bytes over the thread's CPU time for
/// that one parse (CPU time, so that other processes' load does not show up as a slower parser).
/// MB/s is reported, not checked: its p90 is the fast tail; the CPU time of the same parses is checked.
func registerParserBenchmarks() {
    let bytes = Workload.json(count: 1_000, variant: 0)
    let megabytesPerSecond = Suite.megabytesPerSecond
    let configuration = Suite.configuration(
        scaling: .one, maxDuration: .seconds(1), maxIterations: 5_000, extra: [megabytesPerSecond: Suite.unchecked])
    let reference = Suite.configuration(
        scaling: .one, maxDuration: .seconds(1), maxIterations: 5_000,
        extra: Suite.referenceOnly.merging([megabytesPerSecond: Suite.unchecked]) { $1 })

    func measure(_ benchmark: Benchmark, _ parse: () throws -> Void) {
        let start = Suite.CPUClock.thread.nanoseconds
        do {
            try parse()
        } catch {
            benchmark.error("parsing the 1,000-key payload failed: \(error)")
            return
        }
        Suite.recordThroughput(benchmark, byteCount: bytes.count, since: start)
    }

    Benchmark("json.parse.1000keys.ConfigDomainJSONParser", configuration: configuration) { benchmark in
        measure(benchmark) { blackHole(try JSONParser().parse(bytes)) }
    }

    Benchmark("json.parse.1000keys.JSONSerialization", configuration: reference) { benchmark in
        measure(benchmark) { blackHole(try JSONSerialization.jsonObject(with: bytes)) }
    }

    Benchmark("json.parse.1000keys.JSONDecoder", configuration: reference) { benchmark in
        measure(benchmark) { blackHole(try JSONDecoder().decode([String: AnyJSON].self, from: bytes)) }
    }
}

/// Any JSON value, decoded with `JSONDecoder` (what an app without our parser would write).
enum AnyJSON: Decodable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([AnyJSON])
    case object([String: AnyJSON])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .int(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([AnyJSON].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: AnyJSON].self))
        }
    }
}
