import Foundation

/// An evaluation that ended in an error, as hooks' `error` receives it: OpenFeature's error code and a message.
public struct EvaluationFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public var code: EvaluationErrorCode
    /// The error in words, for a person.
    public var message: String

    /// Creates a failure.
    public init(code: EvaluationErrorCode, message: String) {
        self.code = code
        self.message = message
    }

    /// `TYPE_MISMATCH: key "n": value "x" rejected by type(Int): …`.
    public var description: String { message.isEmpty ? code.rawValue : "\(code.rawValue): \(message)" }
}
