import Foundation

/// A user name and password for an etcd cluster with authentication enabled.
///
/// The adapter trades them for a token at `/v3/auth/authenticate` before its first request, and
/// again whenever the cluster says the token is invalid or expired. The password never appears in
/// a description, a mirror or an error message.
public struct EtcdCredentials: Sendable, Hashable, CustomStringConvertible, CustomReflectable {
    /// The etcd user name.
    public var username: String
    /// The user's password.
    public var password: String

    /// Creates credentials.
    public init(username: String, password: String) {
        self.username = username
        self.password = password
    }

    /// `EtcdCredentials(username: app, password: <redacted>)`.
    public var description: String { "EtcdCredentials(username: \(username), password: <redacted>)" }

    /// A mirror showing the user name only.
    public var customMirror: Mirror {
        Mirror(self, children: ["username": username, "password": "<redacted>"], displayStyle: .struct)
    }
}
