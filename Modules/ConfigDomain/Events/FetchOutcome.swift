import Foundation

/// What a fetcher answered, as reported by ``ConfigEvent/fetched(_:duration:)``.
public enum FetchOutcome: Sendable, Hashable, CustomStringConvertible {
    /// A new payload (or the same bytes again, unconditionally).
    case modified
    /// The payload the client holds is current.
    case notModified
    /// The fetch failed with this error.
    case failed(FetchError)

    /// `modified`, `not modified` or `failed: <message>`.
    public var description: String {
        switch self {
        case .modified: "modified"
        case .notModified: "not modified"
        case .failed(let error): "failed: \(error.message)"
        }
    }
}
