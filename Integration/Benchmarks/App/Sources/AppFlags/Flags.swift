import RemoteConfig

/// An app's keys, as an app declares them: `static let`s in a module of its own.
public enum Flags {
    /// A feature flag.
    public static let newCheckout = ConfigKey("new_checkout", default: false)
    /// A tuning number with a rule.
    public static let maxRetries = ConfigKey("max_retries", default: 3, rules: [.range(0...10)])
    /// A piece of copy.
    public static let welcome = ConfigKey("welcome_message", default: "Welcome!")
    /// The keys the app registers.
    public static let all: [any ConfigKeyRepresentable] = [newCheckout, maxRetries, welcome]
}
