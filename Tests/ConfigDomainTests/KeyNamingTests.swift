import ConfigDomain
import Foundation
import Testing

enum AppKey: String {
    case newCheckout = "new_checkout"
    case theme
    case retries = "max_retries"
}

@Suite("Key names, parts and descriptors")
struct KeyNamingTests {
    @Test("a key can be named by a string enum case")
    func enumNamedKeys() throws {
        let flag = ConfigKey(AppKey.newCheckout, default: false)
        #expect(flag.name == "new_checkout")
        #expect(try flag.resolve(.bool(true)).get() == true)
        let theme = ConfigKey(AppKey.theme, default: Theme.light)
        #expect(theme.name == "theme")
        #expect(try theme.resolve(.string("dark")).get() == .dark)
    }

    @Test("a key named by a case and one named by the same string read the same payload member")
    func enumAndStringNamesAgree() {
        #expect(ConfigKey(AppKey.retries, default: 1).name == ConfigKey("max_retries", default: 1).name)
    }

    @Test("the descriptor carries name, type, default, rule names, secrecy and summary")
    func descriptor() {
        let key = ConfigKey("max_retries", default: 3, rules: [.range(0...10), .atLeast(1)], summary: "How often to retry")
        #expect(
            key.descriptor
                == KeyDescriptor(
                    name: "max_retries", typeName: "Int", defaultValue: .int(3), ruleNames: ["range(0...10)", "atLeast(1)"],
                    isSecret: false, summary: "How often to retry"))
        #expect(key.descriptor.description == "max_retries: Int = 3")
        #expect(key.summary == "How often to retry")
        #expect(key.defaultValue == 3)
    }

    @Test("keys of a built-in type share one converter; other convertible types get one each")
    func builtInConvertersAreShared() throws {
        #expect(ConfigKey("a", default: true).converter === ConfigKey("b", default: false).converter)
        #expect(ConfigKey("c", default: 1).converter === ValueConverter<Int>.convertible)
        #expect(ConfigKey("d", default: 1.5).converter === Double.configConverter)
        #expect(ConfigKey("e", default: "s").converter === String.configConverter)
        let url = try #require(URL(string: "https://x.example"))
        #expect(ConfigKey("f", default: url).converter === URL.configConverter)
        #expect(ConfigKey("g", default: [1]).converter !== ConfigKey("h", default: [2]).converter)
        #expect(try ConfigKey("g", default: [1]).converter.fromValue(.array([.int(4)])) == [4])
    }

    @Test("descriptors of every supported value type name the type")
    func descriptorTypeNames() throws {
        #expect(ConfigKey("a", default: true).descriptor.typeName == "Bool")
        #expect(ConfigKey("b", default: 1.5).descriptor.typeName == "Double")
        #expect(ConfigKey("c", default: "s").descriptor.typeName == "String")
        #expect(ConfigKey("d", default: try #require(URL(string: "https://x.example"))).descriptor.typeName == "URL")
        #expect(ConfigKey("e", default: [1, 2]).descriptor.typeName == "[Int]")
        #expect(ConfigKey("f", default: Tier.pro).descriptor.typeName == "Tier")
        #expect(ConfigKey("g", default: [1.5]).descriptor.defaultValue == .array([.double(1.5)]))
    }

    @Test("a converter named after its type uses the name String(describing:) gives, for nested and generic types too")
    func converterNamesMatchDescribing() {
        #expect(ValueConverter<Nest.Inner>.decodable.typeName == String(describing: Nest.Inner.self))
        #expect(ValueConverter<Nest.Inner>.decodable.typeName == "Inner")
        #expect(ValueConverter<[Nest.Inner]>.decodable.typeName == String(describing: [Nest.Inner].self))
        #expect(ValueConverter<[String: Nest.Inner]>.decodable.typeName == String(describing: [String: Nest.Inner].self))
        #expect(ValueConverter<Nest.Inner?>.decodable.typeName == String(describing: Nest.Inner?.self))
    }

    @Test("keys of different value types, and an app's own type standing for a key, list together")
    func representableKeysListTogether() {
        let key = ConfigKey("wrapped_flag", default: true)
        let wrapper = KeyWrapper(key: key)
        #expect(wrapper.configKey.name == key.name)
        let described = ConfigKey(
            "described", default: 4, rules: [.range(1...9)], secret: true, summary: "How many, at most")
        #expect(
            described.descriptor
                == KeyDescriptor(
                    name: "described", typeName: "Int", defaultValue: .int(4), ruleNames: ["range(1...9)"], isSecret: true,
                    summary: "How many, at most"))
        let listed: [any ConfigKeyRepresentable] = [key, wrapper, described]
        #expect(listed.map { describe($0).name } == ["wrapped_flag", "wrapped_flag", "described"])
        #expect(listed.map { describe($0).typeName } == ["Bool", "Bool", "Int"])
        #expect(describe(listed[2]) == described.descriptor)
    }

    /// What a registry does with a listed key: opens it and asks for its descriptor.
    private func describe(_ key: some ConfigKeyRepresentable) -> KeyDescriptor {
        key.configKey.descriptor
    }

    @Test("a converter is named as given, or after its value type when no name is given")
    func converterNames() {
        let named = ValueConverter<Int>(
            typeName: "Percent", fromValue: { _ throws(ConversionError) in 0 }, fromText: { _ throws(ConversionError) in 0 },
            toValue: { .int(Int64($0)) })
        let unnamed = ValueConverter<Int>(
            fromValue: { _ throws(ConversionError) in 0 }, fromText: { _ throws(ConversionError) in 0 },
            toValue: { .int(Int64($0)) })
        #expect(named.typeName == "Percent")
        #expect(unnamed.typeName == "Int")
        #expect(ConfigKey(name: "p", default: 5, converter: named).descriptor.typeName == "Percent")
        #expect(ValueConverter<Tier>.rawRepresentable.typeName == "Tier")
        do throws(ConversionError) {
            _ = try ValueConverter<Tier>.rawRepresentable.fromValue(.int(7))
            Issue.record("7 is no raw value of Tier, yet it converted")
        } catch {
            #expect(error.expectedType == "Tier")
            #expect(error.found == "7")
            #expect(error.reason.hasPrefix("no case of Tier has the raw value 7"))
        }
    }

    @Test("a key gives back every part it was made with")
    func keyKeepsItsParts() throws {
        let key = ConfigKey(
            "motto", default: "hello", rules: [.length(1...8)], secret: true, summary: "The motto on the home screen")
        #expect(key.name == "motto")
        #expect(key.defaultValue == "hello")
        #expect(key.rules.map(\.name) == ["length(1...8)"])
        #expect(key.isSecret)
        #expect(key.summary == "The motto on the home screen")
        #expect(key.converter.typeName == "String")
        #expect(try key.converter.fromValue(.string("hi")) == "hi")
        let inner = ConfigKey(decoding: "inner", default: Nest.Inner(on: true))
        #expect(inner.defaultValue.on)
        #expect(!inner.isSecret && inner.summary == nil && inner.rules.isEmpty)
    }

    @Test("the default renders as a ConfigValue; a Codable default is encoded, a Decodable-only one is not")
    func defaultConfigValue() {
        #expect(ConfigKey("retries", default: 3).defaultConfigValue == .int(3))
        #expect(ConfigKey("ratio", default: 1.0).defaultConfigValue == .double(1.0))
        #expect(ConfigKey(decoding: "inner", default: Nest.Inner(on: true)).defaultConfigValue == .object(["on": .bool(true)]))
        let decodableOnly = ConfigKey(decoding: "only", default: DecodableOnly(count: 2))
        #expect(decodableOnly.defaultConfigValue == nil)
        #expect(decodableOnly.descriptor.description == "only: DecodableOnly = <not renderable>")
    }

    @Test("ruleProblems lists each invalid rule as `rule: problem`, and nothing for valid rules")
    func ruleProblems() {
        #expect(ConfigKey("retries", default: 3, rules: [.range(0...10)]).ruleProblems.isEmpty)
        let bad = ConfigKey("bad", default: "", rules: [.nonEmpty, .pattern("("), .pattern("[a-")])
        #expect(
            bad.ruleProblems == [
                "pattern((): '(' is not a valid regular expression", "pattern([a-): '[a-' is not a valid regular expression",
            ])
    }

    @Test("render shows a value as JSON text")
    func render() {
        #expect(ConfigKey("s", default: "x").render("hello") == #""hello""#)
        #expect(ConfigKey("d", default: 1.0).render(2) == "2.0")
    }
}

/// Types nested in another, as an app's often are.
enum Nest {
    struct Inner: Codable, Sendable { var on: Bool }
}

/// A structured value that decodes but cannot be encoded back.
struct DecodableOnly: Decodable, Sendable { var count: Int }

/// A type of an app's own that stands for a key.
struct KeyWrapper: ConfigKeyRepresentable {
    let key: ConfigKey<Bool>
    var configKey: ConfigKey<Bool> { key }
}
