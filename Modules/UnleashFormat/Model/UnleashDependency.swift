/// A dependency on a parent feature: the parent must be enabled (or disabled), and, when
/// `variants` is not empty, serve one of those variants.
struct UnleashDependency: Sendable, Equatable {
    /// The parent feature's name.
    let feature: String
    /// Whether the parent must be enabled (`true`, the default) or disabled.
    let enabled: Bool
    /// The parent's variant names of which one must be served; empty for any.
    let variants: [String]
}
