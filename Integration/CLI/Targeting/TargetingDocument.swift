import ConfigDomain
import ConfigPorts
import FlagdFormat
import Foundation
import GrowthBookFormat
import Targeting
import TargetingFormat
import UnleashFormat

/// A config file with targeting rules, decoded by the dialect its shape shows.
struct TargetingDocument {
    /// The payload dialects the tool recognises.
    enum Dialect: String {
        /// `TargetingJSONFormat`: `values`, `targeting`, `groups`.
        case targeting = "targeting-json"
        /// `GrowthBookFormat`: a GrowthBook SDK payload with `features`.
        case growthBook = "growthbook"
        /// `UnleashFormat`: an Unleash client features payload (`features` is an array).
        case unleash = "unleash"
        /// `FlagdFormat`: flagd flag definitions (a `flags` object).
        case flagd = "flagd"

        var format: any PayloadFormat {
            switch self {
            case .targeting: TargetingJSONFormat()
            case .growthBook: GrowthBookFormat()
            case .unleash: UnleashFormat()
            case .flagd: FlagdFormat()
            }
        }
    }

    let dialect: Dialect
    let payload: DecodedPayload

    /// The dialect of `bytes`: Unleash when the top level has a `features` array, GrowthBook when it
    /// has another `features`, flagd when it has a `flags` object, ours when it has
    /// `targeting` (or only `values` and `groups`), nil for anything else (plain JSON).
    static func dialect(of bytes: Data) -> Dialect? {
        guard case .object(let members)? = try? JSONParser().parse(bytes) else { return nil }
        if case .array? = members["features"] { return .unleash }
        if members["features"] != nil || members["encryptedFeatures"] != nil { return .growthBook }
        if case .object? = members["flags"] { return .flagd }
        if members["targeting"] != nil { return .targeting }
        if !members.isEmpty, Set(members.keys).isSubset(of: ["values", "groups"]) { return .targeting }
        return nil
    }

    /// Decodes `bytes` with the dialect its shape shows (plain JSON when it shows none).
    static func decode(_ bytes: Data) throws(PayloadError) -> (dialect: Dialect?, payload: DecodedPayload) {
        let dialect = dialect(of: bytes)
        let format: any PayloadFormat = dialect?.format ?? PlainJSONFormat()
        return (dialect, try format.decode(bytes))
    }
}

/// Reads `--context '{"id":"u1","country":"DE"}'`: every member is an attribute, and `targetingKey`
/// (else `id`) is also the targeting key.
enum ContextArgument {
    static func parse(_ text: String?) throws(CLIFailure) -> EvaluationContext {
        guard let text else { return .empty }
        let value: ConfigValue
        do throws(JSONParseError) {
            value = try JSONParser().parse(Data(text.utf8))
        } catch {
            throw CLIFailure.input(
                "--context is not valid JSON: \(error); write an object such as '{\"id\":\"u1\",\"country\":\"DE\"}'")
        }
        guard case .object(let attributes) = value else {
            throw CLIFailure.input("--context must be a JSON object of attributes, such as '{\"id\":\"u1\",\"country\":\"DE\"}'")
        }
        let key = attributes[EvaluationContext.targetingKeyAttribute] ?? attributes["id"]
        return EvaluationContext(targetingKey: key.flatMap(Bucketing.hashText(of:)), attributes: attributes)
    }
}
