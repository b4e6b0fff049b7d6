import ArgumentParser
import ConfigCatFormat
import ConfigDomain
import ConfigPorts
import FirebaseFormat
import FlagdFormat
import Foundation
import GrowthBookFormat
import LaunchDarklyFormat
import OFREPAdapter
import TargetingFormat
import UnleashFormat

/// The payload formats the tool reads, by the names `--format` takes.
///
/// Every command that reads a config (`eval`, `validate`, `serve`, `compare`) detects the format from
/// the document's shape (``detect(_:)``), or takes the one `--format` names.
enum ConfigDialect: String, CaseIterable, Sendable, ExpressibleByArgument {
    /// Plain JSON: every member is a key with a plain value (`PlainJSONFormat`).
    case json
    /// The library's own rules dialect (`TargetingJSONFormat`): `values`, `targeting`, `groups`.
    case targeting
    /// A GrowthBook SDK payload (`GrowthBookFormat`): a `features` object.
    case growthbook
    /// An Unleash client features payload (`UnleashFormat`): a `features` array.
    case unleash
    /// flagd flag definitions (`FlagdFormat`): a `flags` object of flags with `variants`.
    case flagd
    /// flagd flag definitions whose `fractional` hashes text, as flagd's daemon does (`.concatenatedString`).
    case flagdString = "flagd-string"
    /// LaunchDarkly's server-side flag data (`LaunchDarklyFormat`): flags with `variations`, `segments`, `flagValues`.
    case launchdarkly
    /// ConfigCat's config JSON (`ConfigCatFormat`): an `f` object, or a `flags` object of plain values.
    case configcat
    /// A Firebase Remote Config template (`FirebaseTemplateFormat`): `parameters`, `parameterGroups`, `conditions`.
    case firebase
    /// An OFREP bulk evaluation response (`OFREPFormat`): a `flags` array, already evaluated by a server.
    case ofrep

    /// The names `--format` takes, for help texts: `json, targeting, growthbook, …`.
    static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }

    /// The payload format that reads this dialect.
    var format: any PayloadFormat {
        switch self {
        case .json: PlainJSONFormat()
        case .targeting: TargetingJSONFormat()
        case .growthbook: GrowthBookFormat()
        case .unleash: UnleashFormat()
        case .flagd: FlagdFormat()
        case .flagdString: FlagdFormat(fractionalHashing: .concatenatedString)
        case .launchdarkly: LaunchDarklyFormat()
        case .configcat: ConfigCatFormat()
        case .firebase: FirebaseTemplateFormat()
        case .ofrep: OFREPFormat()
        }
    }

    /// The name printed in reports: the format's own (`targeting-json`, `firebase-template`, …).
    var displayName: String {
        switch self {
        case .flagdString: "flagd, string hashing"
        default: format.name
        }
    }

    /// Whether the dialect carries rules (every dialect but plain JSON), so that `validate` checks its rules.
    var hasRules: Bool { self != .json }

    /// The dialect `document`'s shape shows, or nil when it is not a JSON object (no format reads it).
    ///
    /// The order matters where vendors share a member's name: Unleash's `features` is an array and
    /// GrowthBook's an object; ConfigCat's override file, LaunchDarkly's flags and flagd's flags all sit
    /// in `flags`, told apart by what the flags hold; OFREP's `flags` is an array. An object that shows
    /// none of these is plain JSON (`--format json` reads any object so, whatever its members).
    static func detect(_ document: ConfigValue) -> ConfigDialect? {
        guard case .object(let members) = document else { return nil }
        if case .string(let schema)? = members["$schema"], schema.contains("flagd") { return .flagd }
        if case .array? = members["features"] { return .unleash }
        if members["features"] != nil || members["encryptedFeatures"] != nil { return .growthbook }
        if ConfigCatFormat.recognizes(document) { return .configcat }
        if case .object? = members["f"] { return .configcat }
        if isLaunchDarkly(members) { return .launchdarkly }
        if case .array? = members["flags"] { return .ofrep }
        if members["flags"] != nil { return .flagd }
        if members["parameters"] != nil || members["parameterGroups"] != nil { return .firebase }
        if members["targeting"] != nil { return .targeting }
        if !members.isEmpty, Set(members.keys).isSubset(of: ["values", "groups"]) { return .targeting }
        return .json
    }

    /// LaunchDarkly's shapes: a streaming `put` event, `segments` or `flagValues`, or flags that hold
    /// LaunchDarkly's members (`variations`, `fallthrough`, `offVariation`) rather than flagd's `variants`.
    private static func isLaunchDarkly(_ members: [String: ConfigValue]) -> Bool {
        if case .string("/")? = members["path"], case .object? = members["data"] { return true }
        if members["segments"] != nil || members["flagValues"] != nil { return true }
        guard case .object(let flags)? = members["flags"] else { return false }
        let launchDarklyMembers: Set<String> = ["variations", "fallthrough", "offVariation"]
        return flags.values.contains { flag in
            guard case .object(let fields) = flag else { return false }
            return !launchDarklyMembers.isDisjoint(with: fields.keys)
        }
    }
}
