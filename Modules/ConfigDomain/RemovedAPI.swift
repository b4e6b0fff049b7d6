import Foundation

// API that was removed, kept as unavailable declarations so that the compiler points to the replacement.

/// Removed: a payload's answer for a key is the one result type, `EvaluationDetails<ConfigValue?>`.
@available(
    *, unavailable,
    message: "DecodedPayload.evaluate(_:in:) returns EvaluationDetails<ConfigValue?>; reasons are EvaluationReason, error codes EvaluationErrorCode"
)
public struct Evaluation: Sendable {}
