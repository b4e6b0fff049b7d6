import RemoteConfig

/// The flags this server reads, each with its one default: what a request sees when no rule of the
/// payload applies to its user, or before any payload arrived.
enum Flags {
    /// Whether the user gets the new checkout (targeted by country and a percentage rollout).
    static let newCheckout = ConfigKey("new_checkout", default: false, summary: "serve the new checkout")
    /// The colour of the buy button (an A/B test).
    static let buttonColor = ConfigKey("button_color", default: "blue", summary: "the buy button's colour")
}
