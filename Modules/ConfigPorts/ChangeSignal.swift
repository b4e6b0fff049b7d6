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
    /// The source's connection came up, or went down and what the source does about it: the client's
    /// status says when push is down (`STALE`), and when it has recovered.
    case connection(PushConnection)

    /// The version this signal names: the `changed` version, or the payload's ETag.
    public var version: String? {
        switch self {
        case .changed(let version): version
        case .payload(let payload): payload.validators.etag
        case .connection: nil
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

    /// Whether the signal says something of the configuration (a change or a payload), not of the connection.
    public var isChange: Bool { if case .connection = self { false } else { true } }

    /// `W/"abc"` → `abc`.
    private static func bare(_ tag: String) -> Substring {
        var text = Substring(tag.trimmingCharacters(in: .whitespaces))
        if text.hasPrefix("W/") { text = text.dropFirst(2) }
        if text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") { text = text.dropFirst().dropLast() }
        return text
    }
}

/// A push source's connection, as it reports it in ``ChangeSignal/connection(_:)``.
public enum PushConnection: Sendable, Hashable, CustomStringConvertible {
    /// The subscription is live: changes will arrive as they happen.
    case connected
    /// The subscription is down, why, and when the source tries again (nil: it does not know yet).
    case disconnected(reason: String, retryIn: TimeInterval?)

    /// `connected`, or `down: connection reset; reconnecting in 2.4 s`.
    public var description: String {
        switch self {
        case .connected: "connected"
        case .disconnected(let reason, let retryIn):
            "down: \(reason)" + (retryIn.map { "; reconnecting in \(String(format: "%.1f", $0)) s" } ?? "")
        }
    }
}
