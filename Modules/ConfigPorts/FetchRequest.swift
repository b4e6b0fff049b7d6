import ConfigDomain
import Foundation

/// What the client asks a fetcher for.
public struct FetchRequest: Sendable, Hashable {
    /// The validators of the payload the client holds; empty for an unconditional fetch.
    public var validators: Validators
    /// The configuration's name (as used by the cache), for fetchers that serve several.
    public var configurationName: String

    /// Creates a request.
    public init(validators: Validators = .none, configurationName: String = "default") {
        self.validators = validators
        self.configurationName = configurationName
    }
}
