import ConfigDomain
import Foundation

/// What the client asks a fetcher for.
public struct FetchRequest: Sendable, Hashable {
    /// The validators of the payload the client holds; empty for an unconditional fetch.
    public var validators: Validators
    /// The configuration's name (as used by the cache), for fetchers that serve several.
    public var configurationName: String
    /// The client's evaluation context when it fetches: what a fetcher that evaluates remotely
    /// (``ConfigFetcher/evaluatesContext``) sends its server. Other fetchers ignore it.
    public var context: EvaluationContext

    /// Creates a request.
    public init(validators: Validators = .none, configurationName: String = "default", context: EvaluationContext = .empty) {
        self.validators = validators
        self.configurationName = configurationName
        self.context = context
    }
}
