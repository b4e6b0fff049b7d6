import ConfigDomain
import Foundation

/// What an ``EvaluationHook`` is told about the evaluation it runs around.
public struct HookContext: Sendable, Hashable {
    /// The key evaluated.
    public var key: String
    /// The key's value type, for example `Bool`.
    public var valueType: String
    /// The context the key is evaluated for: given with the call, the request's, or the client's own,
    /// with what earlier hooks' `before` added.
    public var context: EvaluationContext

    /// Creates a hook context.
    public init(key: String, valueType: String, context: EvaluationContext) {
        self.key = key
        self.valueType = valueType
        self.context = context
    }
}
