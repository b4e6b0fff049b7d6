import Foundation

extension FetchError.Kind {
    /// A stable snake_case name for metrics and log metadata, for example `http_status`.
    public var name: String {
        switch self {
        case .transport: "transport"
        case .timeout: "timeout"
        case .httpStatus: "http_status"
        case .rateLimited: "rate_limited"
        case .redirectLoop: "redirect_loop"
        case .bodyTooLarge: "body_too_large"
        case .unsupportedContentType: "unsupported_content_type"
        case .truncatedBody: "truncated_body"
        case .emptyBody: "empty_body"
        case .invalidPayload: "invalid_payload"
        case .insecureURL: "insecure_url"
        case .cancelled: "cancelled"
        case .other: "other"
        }
    }
}

extension ConfigError {
    /// A stable name of what failed, for metrics and log metadata: `fetch.<kind>` (such as
    /// `fetch.timeout`), `payload`, `signature`, `cache`, `configuration`, `rejected`, `decoding` or `stopped`.
    public var kindName: String {
        switch self {
        case .fetch(let error): "fetch.\(error.kind.name)"
        case .payload: "payload"
        case .signature: "signature"
        case .cache: "cache"
        case .configuration: "configuration"
        case .rejected: "rejected"
        case .decoding: "decoding"
        case .stopped: "stopped"
        }
    }
}
