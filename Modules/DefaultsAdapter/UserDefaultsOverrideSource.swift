import ConfigDomain
import ConfigPorts
import Foundation

/// Overrides read from `UserDefaults`: what the user set in the app's Settings pane, or what a
/// debug screen wrote, with a new state after each change.
///
/// ```swift
/// builder.override(try UserDefaultsOverrideSource())                       // the app's own defaults
/// builder.override(try UserDefaultsOverrideSource(suiteName: "group.com.example.app", keyPrefix: "rc."))
/// ```
///
/// A key's defaults key is `keyPrefix + name`. Strings are coerced to the key's type as typed
/// text (`"5"` reads as `5` for an `Int` key); Booleans, numbers, arrays and dictionaries are
/// values. A stored date or data is reported as a problem. Values registered with
/// `UserDefaults.register(defaults:)` count as set: put shipped defaults in `BundledDefaults` instead.
///
/// Changes arrive through `UserDefaults.didChangeNotification`, after which the source reads the
/// keys again and yields a new state if they changed. Apple's Foundation posts it after every
/// change made in this process (and for the Settings app's changes when the app is active
/// again); another process writing to a shared App Group suite posts none here. On Linux,
/// swift-corelibs-foundation posts it only from `setPersistentDomain(_:forName:)` and
/// `removePersistentDomain(forName:)`: post it yourself after `set(_:forKey:)` there.
public final class UserDefaultsOverrideSource: OverrideSource {
    /// `UserDefaults` or `UserDefaults(<suite>)`, or the name given.
    public let name: String
    private let suite: DefaultsSuite

    /// The suite read, or nil for the app's own defaults.
    public var suiteName: String? { suite.suiteName }

    /// Reads the app's defaults (`suiteName` nil) or a suite, each key as `keyPrefix + name`.
    ///
    /// - Throws: `ConfigurationError` (`.invalidAdapterSetting`) for a suite name UserDefaults refuses.
    public init(suiteName: String? = nil, keyPrefix: String = "", name: String? = nil) throws(ConfigurationError) {
        suite = try DefaultsSuite(suiteName: suiteName, keyPrefix: keyPrefix)
        self.name = name ?? suite.label
    }

    /// The stored values of the registered keys, each with origin `UserDefaults(<suite>):<defaults key>`.
    public func overrides(for keys: [KeyDescriptor]) -> OverrideSnapshot { suite.read(keys) }

    /// The current values, then the new values after each change of the defaults that touches them.
    public func changes(for keys: [KeyDescriptor]) -> AsyncStream<OverrideSnapshot> {
        let (stream, continuation) = AsyncStream<OverrideSnapshot>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let last = Locked<OverrideSnapshot?>(nil)
        let suite = suite
        // Read, compare and yield under one lock, so a slower reader never yields an older state after a newer one.
        let publish: @Sendable () -> Void = {
            last.withLock { last in
                let now = suite.read(keys)
                guard now != last else { return }
                last = now
                continuation.yield(now)
            }
        }
        let observer = NotificationCenter.default.addObserver(
            forName: UserDefaults.didChangeNotification, object: nil, queue: nil, using: { _ in publish() })
        let registration = Locked<(any NSObjectProtocol)?>(observer)
        continuation.onTermination = { _ in
            if let observer = registration.withLock({ held in
                defer { held = nil }; return held
            }) {
                NotificationCenter.default.removeObserver(observer)
            }
        }
        publish()
        return stream
    }
}
