import Foundation
import RemoteConfigApp

/// What the user may pick on the settings screen.
enum Theme: String, Sendable, CaseIterable {
    case light, dark, system
}

/// The app's keys, named by a string enum as many apps already do.
enum FlagName: String {
    case newCheckout = "new_checkout"
    case maxRetries = "max_retries"
    case bannerText = "banner_text"
    case theme
    case serverURL = "server_url"
}

/// Every setting the app reads: name, default and rules, in one place.
enum Flags {
    static let newCheckout = ConfigKey(FlagName.newCheckout, default: false)
    static let maxRetries = ConfigKey(FlagName.maxRetries, default: 3, rules: [.range(0...10)])
    static let bannerText = ConfigKey(FlagName.bannerText, default: "")
    static let theme = ConfigKey(FlagName.theme, default: Theme.system)
    static let serverURL = ConfigKey(FlagName.serverURL, default: URL(string: "https://api.example.com")!)
}
