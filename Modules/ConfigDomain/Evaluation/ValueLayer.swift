import Foundation

/// The layer a resolved value came from, in resolution order.
public enum ValueLayer: Sendable, Hashable, CustomStringConvertible {
    /// An override source, by its name and position (0 wins over 1), and the exact origin
    /// (an environment variable, an argument, a debug-menu entry).
    case override(source: String, position: Int, origin: String)
    /// An active remote snapshot (fetched now, or loaded from the cache at launch), by its payload's source.
    case snapshot(source: String)
    /// The last value of this key that passed its rules, kept because the active snapshot's value was rejected.
    case lastGoodSnapshot(source: String)
    /// Values shipped with the app, by their file (for example `defaults.plist` or `Settings.bundle/Root.plist`).
    case bundledDefaults(source: String)
    /// The key's default.
    case defaultValue

    /// `override environment (MYAPP_X)`, `snapshot https://…`, `bundled defaults defaults.plist`, `default`.
    public var description: String {
        switch self {
        case .override(let source, _, let origin): "override \(source) (\(origin))"
        case .snapshot(let source): "snapshot \(source)"
        case .lastGoodSnapshot(let source): "last good snapshot \(source)"
        case .bundledDefaults(let source): "bundled defaults \(source)"
        case .defaultValue: "default"
        }
    }

    /// Whether this is an override layer.
    public var isOverride: Bool { if case .override = self { true } else { false } }
}
