import Foundation

/// An error etcd answered with: a gRPC status code and its message (`etcdserver: no leader`).
struct GatewayStatus: Sendable, Hashable {
    /// The gRPC status code (14 is Unavailable, 16 Unauthenticated, …).
    var code: Int
    /// etcd's message.
    var message: String

    /// Whether a fresh token may help: the token is invalid or expired, or none was sent to a
    /// cluster that has authentication enabled.
    var needsToken: Bool {
        code == 16 || message.contains("user name is empty") || message.contains("invalid auth token")
    }

    /// Whether the member cannot serve now but another may: no leader, a leader change, a timeout.
    var isMemberUnavailable: Bool { [1, 4, 10, 14].contains(code) }

    /// Whether the user name or password was refused.
    var isBadCredentials: Bool { message.contains("authentication failed") }

    /// Whether the cluster has authentication turned off (the answer to an authenticate).
    var isAuthenticationDisabled: Bool { message.contains("authentication is not enabled") }

    /// The error a caller sees for this status, when no other endpoint or token can help.
    func error(user: String?) -> EtcdError {
        if needsToken {
            return EtcdError(
                .authenticationFailed,
                "the cluster has authentication enabled and refused the request (etcd said: \(message)); "
                    + "give EtcdCredentials(username:password:) for a user that may read this key")
        }
        if isBadCredentials {
            return EtcdError(
                .authenticationFailed,
                "etcd refused the user name or password of user \"\(user ?? "")\" (etcd said: \(message)); "
                    + "check the credentials")
        }
        switch code {
        case 7:
            return EtcdError(
                .permissionDenied,
                "user \"\(user ?? "")\" has no permission for this key (etcd said: \(message)); grant the user a "
                    + "role with access to it (etcdctl role grant-permission)")
        case 11:
            return EtcdError(.compacted, "the revision asked for was compacted (etcd said: \(message))")
        default:
            return EtcdError(.rejected, "etcd refused the request: \(message) (gRPC code \(code))")
        }
    }
}
