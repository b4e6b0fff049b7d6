import ConfigDomain
import Foundation

/// What a ``ChangeSignalSource`` says: "something changed", maybe with its version, or the whole new payload.
public indirect enum ChangeSignal: Sendable, Hashable {
    /// The configuration changed (or may have: `nil` version after a reconnect); the client fetches
    /// unless it already holds `version`.
    case changed(version: String?)
    /// The whole new payload; the client validates and activates it without fetching. Its
    /// ``FetchedPayload/validators`` are what the client sends on its next conditional fetch.
    case payload(FetchedPayload)

    /// The version this signal names: the `changed` version, or the payload's ETag.
    public var version: String? {
        switch self {
        case .changed(let version): version
        case .payload(let payload): payload.validators.etag
        }
    }

    /// Whether `version` names the payload whose validators are `validators`.
    ///
    /// Entity tags are compared without a weak `W/` prefix and without surrounding quotes, so the
    /// version `abc` (an SSE event's data, an etcd revision) matches the ETag `"abc"` or `W/"abc"`.
    public static func isSameVersion(_ version: String, as validators: Validators) -> Bool {
        guard let etag = validators.etag else { return false }
        return bare(version) == bare(etag)
    }

    /// `W/"abc"` → `abc`.
    private static func bare(_ tag: String) -> Substring {
        var text = Substring(tag.trimmingCharacters(in: .whitespaces))
        if text.hasPrefix("W/") { text = text.dropFirst(2) }
        if text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") { text = text.dropFirst().dropLast() }
        return text
    }
}
