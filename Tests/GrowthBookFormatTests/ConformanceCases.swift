import ConfigDomain
import Foundation
import Targeting
import Testing

/// GrowthBook's published cross-SDK cases (`Conformance/cases.json`, MIT, see `Conformance/LICENSE`), parsed once.
enum ConformanceCases {
    /// The whole file as one JSON value.
    static let document: ConfigValue = {
        guard let url = Bundle.module.url(forResource: "cases", withExtension: "json", subdirectory: "Conformance"),
            let data = try? Data(contentsOf: url), let value = try? JSONParser().parse(data)
        else { return .null }
        return value
    }()

    /// The cases of one section, each with its position and name.
    static func section(_ name: String) -> [Case] {
        (document[name]?.arrayValue ?? []).enumerated().map { index, fields in Case(index: index, fields: fields.arrayValue ?? [])
        }
    }

    /// One case: a tuple of JSON values, named by its first member when that is a string.
    struct Case: Sendable, CustomTestStringConvertible {
        let index: Int
        let fields: [ConfigValue]

        subscript(position: Int) -> ConfigValue { position < fields.count ? fields[position] : .null }

        var name: String { fields.first?.stringValue ?? "case \(index)" }
        var testDescription: String { "#\(index) \(name)" }
    }
}

/// JSON equality as GrowthBook's SDK tests use it: numbers by value, doubles within 1e-6, objects by members.
func sameJSON(_ a: ConfigValue, _ b: ConfigValue) -> Bool {
    switch (a, b) {
    case (.int, .int), (.int, .double), (.double, .int), (.double, .double):
        let x = a.doubleValue ?? a.intValue.map(Double.init) ?? .nan
        let y = b.doubleValue ?? b.intValue.map(Double.init) ?? .nan
        return abs(x - y) < 1e-6
    case (.array(let x), .array(let y)):
        return x.count == y.count && zip(x, y).allSatisfy(sameJSON)
    case (.object(let x), .object(let y)):
        return Set(x.keys) == Set(y.keys) && x.allSatisfy { key, value in y[key].map { sameJSON(value, $0) } ?? false }
    default:
        return a == b
    }
}

/// Bucket ranges from `[[start, end], …]`.
func bucketRanges(_ json: ConfigValue) -> [BucketRange] {
    (json.arrayValue ?? []).map { pair in
        let bounds = (pair.arrayValue ?? []).map { $0.doubleValue ?? $0.intValue.map(Double.init) ?? 0 }
        return BucketRange(lower: bounds.first ?? 0, upper: bounds.dropFirst().first ?? 0)
    }
}

/// A JSON number as a double.
func number(_ json: ConfigValue) -> Double? { json.doubleValue ?? json.intValue.map(Double.init) }
