import BenchmarkWorkloads
import ConfigDomain
import Foundation

/// Times `decode` of a `TemplateWorkload` payload of `parameters` keys by one format, `rounds`
/// times, and prints the median wall time and the CPU time per decode. Checks first that the
/// Firebase template and the plain JSON object decode to the same values, with nothing dropped.
func formatDecodeTimer(format which: String, parameters count: Int, rounds: Int) {
    let template = TemplateWorkload.template(parameters: count)
    let plain = TemplateWorkload.plainJSON(parameters: count)
    let firebase = FirebaseTemplateFormat()
    do throws(PayloadError) {
        let decoded = try firebase.decodeTemplate(template)
        let expected = try PlainJSONFormat().decode(plain)
        guard decoded.values == expected, decoded.values.count == count, decoded.droppedParameters.isEmpty else {
            fail("the template does not decode to the plain JSON's \(count) values (dropped: \(decoded.droppedParameters))")
        }
    } catch {
        fail("the workload does not decode: \(error)")
    }
    let format: any PayloadFormat
    let bytes: Data
    switch which {
    case "firebase": (format, bytes) = (firebase, template)
    case "plain": (format, bytes) = (PlainJSONFormat(), plain)
    case "template-parse": (format, bytes) = (ParseOnly(), template)
    case "workload": (format, bytes) = (PlainJSONFormat(), Workload.json(count: count, variant: 0))
    default: fail("usage: ReadProbe format-decode <firebase|plain|template-parse|workload> <parameters> [rounds]")
    }
    var samples: [Double] = []
    samples.reserveCapacity(rounds)
    let startCPU = processCPUNanoseconds()
    for _ in 0..<rounds {
        let start = monotonicNanoseconds()
        guard let values = try? format.decode(bytes),
            values.count == count || which == "template-parse"
                || (which == "workload" && values.count == count + 1 + Workload.unregisteredCount)
        else {
            fail("a decode failed")
        }
        samples.append(Double(monotonicNanoseconds() - start) / 1_000)
        consume(values)
    }
    let cpu = Double(processCPUNanoseconds() - startCPU) / 1_000 / Double(max(rounds, 1))
    samples.sort()
    print(
        "format=\(format.name) parameters=\(count) bytes=\(bytes.count) rounds=\(rounds)"
            + " medianUs=\(String(format: "%.1f", samples[samples.count / 2])) cpuUsPerDecode=\(String(format: "%.1f", cpu))")
}

/// The template's JSON parse alone, what `FirebaseTemplateFormat` cannot do without: its floor.
struct ParseOnly: PayloadFormat {
    let name = "template-parse"

    func decode(_ bytes: Data) throws(PayloadError) -> [String: ConfigValue] {
        do throws(JSONParseError) {
            guard case .object(let top) = try JSONParser().parse(bytes) else { return [:] }
            return top
        } catch {
            throw PayloadError(format: name, parse: error)
        }
    }
}
