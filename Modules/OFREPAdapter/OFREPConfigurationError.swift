import Foundation

/// A setting of an ``OFREPFetcher`` that cannot work: a missing or bad endpoint, a header that
/// cannot be sent, a timeout out of range. Messages name the setting and never quote a header's value.
public struct OFREPConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong.
    public enum Kind: Sendable, Hashable {
        /// No endpoint was given (`OFREP_ENDPOINT` is unset or empty).
        case missingEndpoint
        /// The endpoint is not an `http` or `https` URL with a host.
        case invalidEndpoint
        /// The endpoint is plain `http` to a host other than loopback, without the opt-in.
        case insecureEndpoint
        /// An entry of `OFREP_HEADERS` (its position, from 1) is not `name=value`, or cannot be sent.
        case invalidHeader(entry: Int)
        /// The timeout is not a positive number of milliseconds.
        case invalidTimeout
        /// A size limit is not positive.
        case invalidLimit
    }

    /// What is wrong.
    public var kind: Kind
    /// What is wrong and how to fix it; never contains a header's value.
    public var message: String

    /// Creates an error.
    public init(_ kind: Kind, message: String) {
        self.kind = kind
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
