import ConfigDomain
import Dispatch
import Foundation

// Throughput of the strict JSONParser against Foundation's parsers on a 1,000-key payload.
// Run in release mode: swift run -c release --scratch-path .build-release ParserThroughput

let payload = BenchmarkPayload.make(keyCount: 1_000)
let runs = 15
let targetSecondsPerRun = 0.1

/// Runs `body` repeatedly for about `targetSecondsPerRun`, `runs` times; returns the median MB/s.
func measure(_ name: String, _ body: () throws -> Int) rethrows -> Double {
    var check = try body()  // warm up, and prove the work is done
    var iterations = 1
    var start = DispatchTime.now().uptimeNanoseconds
    while Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 < targetSecondsPerRun / 4 {
        check &+= try body()
        iterations += 1
    }
    iterations = max(1, iterations * 4)
    var rates: [Double] = []
    for _ in 0..<runs {
        start = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<iterations { check &+= try body() }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        rates.append(Double(payload.count * iterations) / seconds / 1_000_000)
    }
    rates.sort()
    let median = rates[rates.count / 2]
    let line = "\(name.padding(toLength: 36, withPad: " ", startingAt: 0)) \(String(format: "%8.1f", median)) MB/s"
    print(line + "  (min \(String(format: "%.1f", rates[0])), max \(String(format: "%.1f", rates[rates.count - 1])), check \(check))")
    return median
}

print("payload: \(payload.count) bytes, 1,000 top-level keys; median of \(runs) runs")
do {
    let ours = try measure("ConfigDomain.JSONParser") {
        guard case .object(let members) = try JSONParser().parse(payload) else { return 0 }
        return members.count
    }
    let serialization = try measure("JSONSerialization.jsonObject") {
        (try JSONSerialization.jsonObject(with: payload) as? [String: Any])?.count ?? 0
    }
    let decoder = try measure("JSONDecoder -> [String: AnyJSON]") {
        try JSONDecoder().decode([String: AnyJSON].self, from: payload).count
    }
    print(String(format: "JSONParser is %.2fx JSONSerialization and %.2fx JSONDecoder", ours / serialization, ours / decoder))
} catch {
    print("benchmark failed: \(error)")
    exit(1)
}
