import ConfigDomain
import Dispatch
import Foundation

// Throughput of the strict JSONParser against Foundation's parsers on a 1,000-key payload.
//
//   swift run -c release --scratch-path .build-release ParserThroughput            # the comparison
//   valgrind --tool=callgrind .build-release/release/ParserThroughput profile [0|1|2]   # one contender only
//
// The three parsers run in turns, round after round, so a change in machine load touches all
// of them alike; each reports the median of its rounds.

let payload = BenchmarkPayload.make(keyCount: 1_000)

/// One contender: a name and one parse of the whole payload, returning a count that proves the work.
struct Contender {
    let name: String
    let parse: () throws -> Int
}

let contenders = [
    Contender(name: "ConfigDomain.JSONParser") {
        guard case .object(let members) = try JSONParser().parse(payload) else { return 0 }
        return members.count
    },
    Contender(name: "JSONSerialization.jsonObject") {
        (try JSONSerialization.jsonObject(with: payload) as? [String: Any])?.count ?? 0
    },
    Contender(name: "JSONDecoder -> [String: AnyJSON]") {
        try JSONDecoder().decode([String: AnyJSON].self, from: payload).count
    },
]

func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

do {
    let arguments = Array(CommandLine.arguments.dropFirst())
    if arguments.first == "profile" {
        // profile [0|1|2]: 200 parses by one contender (default JSONParser), nothing else.
        let which = arguments.count > 1 ? Int(arguments[1]) ?? 0 : 0
        let contender = contenders[min(max(which, 0), contenders.count - 1)]
        var keys = 0
        for _ in 0..<200 { keys &+= try contender.parse() }
        print("\(contender.name): parsed \(keys) keys")
        exit(0)
    }

    let rounds = 21
    let secondsPerTurn = 0.05
    // Calibrate: how many parses fill one turn, after a warm-up.
    var iterations: [Int] = []
    for contender in contenders {
        guard try contender.parse() == 1_000 else {
            print("\(contender.name) did not see 1,000 keys")
            exit(1)
        }
        let start = now()
        var count = 0
        while now() - start < secondsPerTurn {
            _ = try contender.parse()
            count += 1
        }
        iterations.append(max(1, count))
    }
    var rates = Array(repeating: [Double](), count: contenders.count)
    for _ in 0..<rounds {
        for (index, contender) in contenders.enumerated() {
            let start = now()
            for _ in 0..<iterations[index] { _ = try contender.parse() }
            let seconds = now() - start
            rates[index].append(Double(payload.count * iterations[index]) / seconds / 1_000_000)
        }
    }
    print("payload: \(payload.count) bytes, 1,000 top-level keys; median of \(rounds) interleaved rounds")
    var medians: [Double] = []
    for (index, contender) in contenders.enumerated() {
        let sorted = rates[index].sorted()
        let median = sorted[sorted.count / 2]
        medians.append(median)
        let name = contender.name.padding(toLength: 34, withPad: " ", startingAt: 0)
        let spread = String(format: "(min %.1f, max %.1f)", sorted[0], sorted[sorted.count - 1])
        print("\(name) \(String(format: "%7.1f", median)) MB/s  \(spread)")
    }
    print(
        String(format: "JSONParser: %.2fx JSONSerialization, %.2fx JSONDecoder", medians[0] / medians[1], medians[0] / medians[2])
    )
} catch {
    print("benchmark failed: \(error)")
    exit(1)
}
