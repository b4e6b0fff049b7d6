import ConfigDomain
import Foundation
import Targeting

/// Reading the members of Unleash's JSON, each with the path a problem names.
extension FeatureParser {
    func problem(_ why: String, at path: String) -> RuleProblem {
        RuleProblem(key: name, path: path, kind: .unparsable(why))
    }

    func kind(_ value: ConfigValue?) -> String { value.map { "a JSON \($0.kind)" } ?? "nothing" }

    func quoted(_ text: String?) -> String { text.map { "\"\($0)\"" } ?? "nothing" }

    func object(_ value: ConfigValue, at path: String) throws(RuleProblem) -> [String: ConfigValue] {
        guard case .object(let members) = value else { throw problem("expected an object, found \(kind(value))", at: path) }
        return members
    }

    /// The elements of an optional array (missing or null: none).
    func array(_ value: ConfigValue?, at path: String) throws(RuleProblem) -> [ConfigValue] {
        switch value {
        case nil, .null?: return []
        case .array(let elements)?: return elements
        case let other?: throw problem("expected an array, found \(kind(other))", at: path)
        }
    }

    func string(_ value: ConfigValue?, at path: String) throws(RuleProblem) -> String {
        guard case .string(let text)? = value else { throw problem("expected a string, found \(kind(value))", at: path) }
        return text
    }

    /// An optional string; numbers are accepted and written as text.
    func text(_ value: ConfigValue?, at path: String) throws(RuleProblem) -> String? {
        switch value {
        case nil, .null?: return nil
        case .string(let text)?: return text
        case .int(let number)?: return String(number)
        case .double(let number)?: return String(number)
        case let other?: throw problem("expected a string, found \(kind(other))", at: path)
        }
    }

    /// An optional array of strings (numbers written as text).
    func texts(_ value: ConfigValue?, at path: String) throws(RuleProblem) -> [String]? {
        guard let value, !value.isNull else { return nil }
        var texts: [String] = []
        for (index, element) in try array(value, at: path).enumerated() {
            if let text = try text(element, at: "\(path)[\(index)]") { texts.append(text) }
        }
        return texts
    }

    func flag(_ value: ConfigValue?, at path: String) throws(RuleProblem) -> Bool {
        switch value {
        case nil, .null?: return false
        case .bool(let flag)?: return flag
        case let other?: throw problem("expected true or false, found \(kind(other))", at: path)
        }
    }
}
