import ConfigDomain
import Foundation

/// One flag of an OFREP bulk evaluation, as the server evaluated it for the context of the request:
/// a value with its reason, variant and metadata, or an error code.
public struct OFREPFlag: Sendable, Hashable {
    /// The flag's key.
    public var key: String
    /// The value served; nil when the server defers to the app's default (OFREP's code default), or on an error.
    public var value: ConfigValue?
    /// The server's reason, as sent: `STATIC`, `TARGETING_MATCH`, `SPLIT`, `DISABLED`, `DEFAULT`, `UNKNOWN`…
    public var reason: String?
    /// The variant served, when the server names one.
    public var variant: String?
    /// The flag's metadata (strings, numbers and Booleans by name).
    public var metadata: [String: ConfigValue]
    /// The OpenFeature error code when the server could not evaluate the flag (`FLAG_NOT_FOUND`, `PARSE_ERROR`, …).
    public var errorCode: String?
    /// The server's words about the error, if any.
    public var errorDetails: String?

    /// Creates a flag evaluation.
    public init(
        key: String, value: ConfigValue? = nil, reason: String? = nil, variant: String? = nil,
        metadata: [String: ConfigValue] = [:], errorCode: String? = nil, errorDetails: String? = nil
    ) {
        self.key = key
        self.value = value
        self.reason = reason
        self.variant = variant
        self.metadata = metadata
        self.errorCode = errorCode
        self.errorDetails = errorDetails
    }

    /// The server's reason as the library's (`UNKNOWN` for a word OpenFeature does not define); nil when it sent none.
    public var evaluationReason: EvaluationReason? { reason.map(EvaluationReason.init(openFeature:)) }

    /// The error code as the library's (`GENERAL` for a word OpenFeature does not define); nil when it sent none.
    public var evaluationErrorCode: EvaluationErrorCode? { errorCode.map(EvaluationErrorCode.init(openFeature:)) }
}

/// The targeting rules of a flag the server evaluated: whatever the context, they serve what the
/// server decided for the context of the request (the client holds a remotely evaluated payload for
/// that context only, fetches again when it changes, and answers a read for another context with
/// `INVALID_CONTEXT`).
///
/// They state the server's reason, variant and value as they are: a `TARGETING_MATCH` as a rule
/// match and a `SPLIT` as a rollout, each with the server's variant; any other reason (`STATIC`,
/// `DEFAULT`, `DISABLED`, `UNKNOWN`…) as stated, with the variant as the payload's default variant.
/// ``flag`` keeps everything the server said.
public struct OFREPEvaluatedRules: TargetingRules {
    /// What the server said about the flag.
    public let flag: OFREPFlag

    /// Rules that serve `flag`.
    public init(flag: OFREPFlag) { self.flag = flag }

    /// The id a match reports: `ofrep` and the server's reason.
    public var ruleID: String { "ofrep " + (flag.reason ?? "UNKNOWN") }

    /// The server's decision, as it said it.
    public func evaluate(in context: EvaluationContext, explaining: Bool) -> TargetingDecision {
        switch flag.evaluationReason {
        case .targetingMatch?:
            TargetingDecision(value: flag.value, match: TargetingMatch(ruleID: ruleID, kind: .rule, variant: flag.variant))
        case .split?:
            TargetingDecision(value: flag.value, match: TargetingMatch(ruleID: ruleID, kind: .rollout, variant: flag.variant))
        case let reason:
            TargetingDecision(value: flag.value, reason: reason ?? .unknown, defaultVariant: flag.variant)
        }
    }
}
