import Benchmark
import BenchmarkWorkloads
import ConfigDomain
import ConfigPorts
import FirebaseFormat
import Foundation

/// `FirebaseTemplateFormat` and `PlainJSONFormat` decoding the same 1,000 values: a console-like
/// Firebase template (types mixed, 40% of the parameters in groups, some with conditional values)
/// and the plain JSON object of the same keys.
///
/// As with the parser benchmarks, `MB/s` is the payload's bytes over the thread's CPU time for
/// one decode, reported but not checked; the CPU time of the same decodes is checked.
func registerFormatBenchmarks() {
    let megabytesPerSecond = Suite.megabytesPerSecond
    let configuration = Suite.configuration(
        scaling: .one, maxDuration: .seconds(1), maxIterations: 5_000, extra: [megabytesPerSecond: Suite.unchecked])

    func measure(_ benchmark: Benchmark, _ bytes: Data, _ format: some PayloadFormat) {
        let start = Suite.CPUClock.thread.nanoseconds
        let values: [String: ConfigValue]
        do throws(PayloadError) {
            values = try format.decode(bytes)
        } catch {
            benchmark.error("\(format.name) could not decode the 1,000-value payload: \(error)")
            return
        }
        Suite.recordThroughput(benchmark, byteCount: bytes.count, since: start)
        guard values.count == FormatFixture.parameterCount else {
            benchmark.error("\(format.name) decoded \(values.count) values, expected \(FormatFixture.parameterCount)")
            return
        }
        blackHole(values)
    }

    Benchmark("format.firebase.decode.1000params", configuration: configuration) { benchmark, fixture in
        measure(benchmark, fixture.template, FirebaseTemplateFormat())
    } setup: {
        try FormatFixture.make()
    }

    Benchmark("format.plainJSON.decode.1000keys", configuration: configuration) { benchmark, fixture in
        measure(benchmark, fixture.plain, PlainJSONFormat())
    } setup: {
        try FormatFixture.make()
    }
}

/// The two payloads, checked to decode to the same values with no parameter dropped.
struct FormatFixture: Sendable {
    static let parameterCount = 1_000

    let template: Data
    let plain: Data

    static func make() throws -> FormatFixture {
        let fixture = FormatFixture(
            template: TemplateWorkload.template(parameters: parameterCount),
            plain: TemplateWorkload.plainJSON(parameters: parameterCount))
        let decoded = try FirebaseTemplateFormat().decodeTemplate(fixture.template)
        let expected = try PlainJSONFormat().decode(fixture.plain)
        guard decoded.values == expected, expected.count == parameterCount, decoded.droppedParameters.isEmpty else {
            throw FixtureError(
                "the Firebase template and the plain JSON object do not decode to the same \(parameterCount) values"
                    + " (dropped: \(decoded.droppedParameters))")
        }
        return fixture
    }
}
