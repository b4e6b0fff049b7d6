import Foundation

/// When a successfully fetched snapshot becomes the one reads see.
public enum ActivationPolicy: String, Sendable, Hashable, CaseIterable {
    /// Apply every successful fetch at once.
    case immediate
    /// Store the fetched snapshot as pending; apply it at the next launch (the next `build()`).
    ///
    /// The values an app sees stay the same for the whole session.
    case nextLaunch
    /// Hold the fetched snapshot until the app calls `activate()`.
    case manual
}
