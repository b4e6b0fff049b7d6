import ConfigDomain
import Foundation
import Testing

enum AppKey: String {
    case newCheckout = "new_checkout"
    case theme
    case retries = "max_retries"
}

@Suite("Key names, identities and descriptors")
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

    @Test("every key gets a unique identity, increasing in creation order")
    func identitiesUniqueAndIncreasing() {
        let keys = (0..<100).map { ConfigKey("k\($0)", default: $0) }
        let identities = keys.map(\.identity)
        #expect(Set(identities).count == 100)
        #expect(identities == identities.sorted())
        #expect(zip(identities, identities.dropFirst()).allSatisfy { $0.rawValue < $1.rawValue })
    }

    @Test("identities taken from many threads at once are all different")
    func identitiesUniqueUnderConcurrency() async {
        let identities = await withTaskGroup(of: [KeyIdentity].self) { group in
            for _ in 0..<8 {
                group.addTask { (0..<200).map { _ in KeyIdentity.next() } }
            }
            var all: [KeyIdentity] = []
            for await batch in group { all += batch }
            return all
        }
        #expect(Set(identities).count == 1_600)
    }

    @Test("the same name twice still makes two identities")
    func sameNameDifferentIdentity() {
        #expect(ConfigKey("x", default: 1).identity != ConfigKey("x", default: 1).identity)
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

    @Test("a key's type-erased form carries its name and identity, also through a wrapper's default")
    func anyConfigKeyCarriesNameAndIdentity() {
        let key = ConfigKey("wrapped_flag", default: true)
        #expect(key.anyConfigKey.name == "wrapped_flag")
        #expect(key.anyConfigKey.identity == key.identity)
        let wrapper = KeyWrapper(key: key)
        #expect(wrapper.anyConfigKey.name == key.name)
        #expect(wrapper.anyConfigKey.identity == key.identity)
        let described = ConfigKey(
            "described", default: 4, rules: [.range(1...9)], secret: true, summary: "How many, at most")
        #expect(described.anyConfigKey.descriptor == described.descriptor)
        #expect(
            described.descriptor
                == KeyDescriptor(
                    name: "described", typeName: "Int", defaultValue: .int(4), ruleNames: ["range(1...9)"], isSecret: true,
                    summary: "How many, at most"))
        let listed: [any ConfigKeyRepresentable] = [key, wrapper, ConfigKey("other", default: 1)]
        #expect(listed.map(\.anyConfigKey.name) == ["wrapped_flag", "wrapped_flag", "other"])
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
        // The enum converter names its type in a refusal, although it no longer renders the name up front.
        #expect(throws: ConversionError.self) { try ValueConverter<Tier>.rawRepresentable.fromValue(.int(7)) }
        do throws(ConversionError) {
            _ = try ValueConverter<Tier>.rawRepresentable.fromValue(.int(7))
            Issue.record("7 is no raw value of Tier, yet it converted")
        } catch {
            #expect(error.expectedType == "Tier")
            #expect(error.found == "7")
            #expect(error.reason.hasPrefix("no case of Tier has the raw value 7"))
        }
    }

    @Test("a key is two words, and gives back every part it was made with")
    func keyIsTwoWords() throws {
        // Two words of any value type fit in an existential's inline buffer: listing keys as
        // `any ConfigKeyRepresentable` allocates no box per key.
        #expect(MemoryLayout<ConfigKey<String>>.size == 2 * MemoryLayout<Int>.size)
        #expect(MemoryLayout<ConfigKey<Nest.Inner>>.size == 2 * MemoryLayout<Int>.size)
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

    @Test("what a key's erased form derives rather than stores matches what the key was made with")
    func erasedFormDerivesWhatItDoesNotStore() {
        // A cold start creates every key, and each new page of memory costs it microseconds: the
        // erased form keeps no closure per operation and nothing it can derive.
        let key = ConfigKey("retries", default: 3, rules: [.range(0...10)])
        #expect(key.erased.defaultRaw == .int(3))
        let first = key.erased.defaultBox
        let second = key.erased.defaultBox
        let boxed = (first as? ValueBox<Int>)?.value
        #expect(boxed == 3)
        #expect(ObjectIdentifier(first) != ObjectIdentifier(second), "a new box each time it is asked for")
        #expect(key.defaultValue == 3)
        #expect(key.erased.ruleProblems.isEmpty)
        #expect(ConfigKey("bad", default: "", rules: [.pattern("(")]).erased.ruleProblems.map(\.rule) == ["pattern(()"])
        #expect(ConfigKey("other", default: 4).erased.valueType == key.erased.valueType, "one value type, one identifier")
        #expect(ConfigKey("flag", default: true).erased.valueType != key.erased.valueType)
        #expect(
            ConfigKey(decoding: "inner", default: Nest.Inner(on: true)).erased.defaultRaw == .object(["on": .bool(true)]),
            "a Codable default is encoded when asked for")
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

/// A type of an app's own that stands for a key, relying on the protocol's default `anyConfigKey`.
struct KeyWrapper: ConfigKeyRepresentable {
    let key: ConfigKey<Bool>
    var configKey: ConfigKey<Bool> { key }
}
