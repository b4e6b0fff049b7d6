import Foundation

/// In which builds the app may change a key at run time with `client.set(key, value)`.
public enum WriteAccess: Sendable, Hashable {
    /// Writable in debug builds; in release builds writes throw and stored values are ignored.
    case lockedInRelease
    /// Writable in every build.
    case allowedInRelease
}

/// A key registered as writable: the same setting as its ``ConfigKey``, which the app may also set.
///
/// ```swift
/// builder.register {
///     Flags.maxRetries
///     Flags.serverURL.writable()                // debug builds only
///     Flags.theme.writable(inRelease: true)     // every build
/// }
/// ```
///
/// A written value passes the key's rules, sits above the remote snapshots and under the
/// overrides, and persists where the client's settings store keeps it (memory, or UserDefaults).
public struct WritableKey<Value: Sendable>: ConfigKeyRepresentable {
    /// The key itself.
    public let configKey: ConfigKey<Value>
    /// In which builds writes are allowed.
    public let writeAccess: WriteAccess?

    /// Declares `key` writable with `access`.
    public init(_ key: ConfigKey<Value>, access: WriteAccess = .lockedInRelease) {
        self.configKey = key
        self.writeAccess = access
    }
}

extension ConfigKey {
    /// This key, declared writable: in debug builds always, in release builds only when `inRelease` is true.
    public func writable(inRelease: Bool = false) -> WritableKey<Value> {
        WritableKey(self, access: inRelease ? .allowedInRelease : .lockedInRelease)
    }
}
