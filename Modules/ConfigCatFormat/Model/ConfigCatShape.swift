import ConfigDomain
import Foundation

/// Where a part of config JSON does not have the schema's shape, and what it should be.
struct ShapeError: Error, Sendable {
    /// Where, for example `f.checkout.r[0].c[1].u.c`.
    var path: String
    /// What is wrong, for example `"c" must be an integer, found a string`.
    var reason: String

    /// The problem that rejects the setting `key`.
    func problem(key: String) -> RuleProblem { RuleProblem(key: key, path: path, kind: .unparsable(reason)) }
}

/// The members of one JSON object of config JSON, read with the types the schema gives them. As
/// ConfigCat's SDKs read it, a member that is `null` counts as absent.
struct Members {
    let members: [String: ConfigValue]
    let path: String

    /// The object `value` at `path`, or the error that it is not one.
    init(_ value: ConfigValue, at path: String) throws(ShapeError) {
        guard case .object(let members) = value else {
            throw ShapeError(path: path, reason: "expected an object, found \(Self.describe(value))")
        }
        self.members = members
        self.path = path
    }

    /// The member `name`, or nil when it is absent or `null`.
    subscript(name: String) -> ConfigValue? {
        guard let value = members[name], !value.isNull else { return nil }
        return value
    }

    /// The path of the member `name`.
    func path(_ name: String) -> String { "\(path).\(name)" }

    /// The string `name`; nil when absent and not `required`.
    func string(_ name: String, required: Bool = false) throws(ShapeError) -> String? {
        guard let value = try member(name, required: required) else { return nil }
        guard case .string(let text) = value else { throw mismatch(name, "a string", value) }
        return text
    }

    /// The integer `name` (a number without a fraction); nil when absent and not `required`.
    func integer(_ name: String, required: Bool = false) throws(ShapeError) -> Int64? {
        guard let value = try member(name, required: required) else { return nil }
        switch value {
        case .int(let number): return number
        case .double(let number) where number.rounded() == number && abs(number) < 9.2e18: return Int64(number)
        default: throw mismatch(name, "an integer", value)
        }
    }

    /// The number `name`; nil when absent.
    func number(_ name: String) throws(ShapeError) -> Double? {
        switch self[name] {
        case nil: return nil
        case .int(let number)?: return Double(number)
        case .double(let number)?: return number
        case let value?: throw mismatch(name, "a number", value)
        }
    }

    /// The Boolean `name`; nil when absent.
    func bool(_ name: String) throws(ShapeError) -> Bool? {
        guard let value = self[name] else { return nil }
        guard case .bool(let flag) = value else { throw mismatch(name, "a Boolean", value) }
        return flag
    }

    /// The array `name`; nil when absent.
    func array(_ name: String) throws(ShapeError) -> [ConfigValue]? {
        guard let value = self[name] else { return nil }
        guard case .array(let elements) = value else { throw mismatch(name, "an array", value) }
        return elements
    }

    /// The array of strings `name`; nil when absent.
    func strings(_ name: String) throws(ShapeError) -> [String]? {
        guard let elements = try array(name) else { return nil }
        var texts: [String] = []
        for (index, element) in elements.enumerated() {
            guard case .string(let text) = element else {
                throw ShapeError(path: "\(path(name))[\(index)]", reason: "expected a string, found \(Self.describe(element))")
            }
            texts.append(text)
        }
        return texts
    }

    /// The member `name`, or the error that a `required` one is absent.
    private func member(_ name: String, required: Bool) throws(ShapeError) -> ConfigValue? {
        guard let value = self[name] else {
            if required { throw ShapeError(path: path(name), reason: "\"\(name)\" is required") }
            return nil
        }
        return value
    }

    private func mismatch(_ name: String, _ expected: String, _ found: ConfigValue) -> ShapeError {
        ShapeError(path: path(name), reason: "\"\(name)\" must be \(expected), found \(Self.describe(found))")
    }

    /// `a string`, `an array`, `the number 1.5`: a found value in words.
    static func describe(_ value: ConfigValue) -> String {
        switch value {
        case .null: "null"
        case .bool(let flag): "the Boolean \(flag)"
        case .int, .double: "the number \(value.jsonText())"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
