import ConfigDomain
import Foundation

/// The typed keys the demo app reads: the way an app declares its flags, once, as `static let`s.
///
/// They match `Examples/manifest.json`, which `validate` checks the example config against.
enum DemoFlags {
    /// Turns on the redesigned checkout flow.
    static let newCheckout = ConfigKey("new_checkout", default: false)
    /// How many times a failed request is retried.
    static let maxRetries = ConfigKey("max_retries", default: 3, rules: [.range(0...10)])
    /// Seconds before a request gives up.
    static let requestTimeout = ConfigKey("request_timeout", default: 30.0, rules: [.atLeast(1), .atMost(120)])
    /// The greeting on the home screen.
    static let welcomeMessage = ConfigKey("welcome_message", default: "Welcome!", rules: [.nonEmpty, .length(1...80)])
    /// The colour theme.
    static let theme = ConfigKey("theme", default: "light", rules: [.oneOf(["light", "dark", "system"])])

    /// Every demo key, for `register(_:)`.
    static let all: [any ConfigKeyRepresentable] = [newCheckout, maxRetries, requestTimeout, welcomeMessage, theme]
}
