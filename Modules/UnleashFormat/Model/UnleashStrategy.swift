import ConfigDomain

/// One activation strategy of a feature: its kind with parameters, its constraints and segments, its variants.
struct UnleashStrategy: Sendable {
    /// The built-in strategies, with the parameters each reads.
    enum Kind: Sendable, Equatable {
        /// On for everyone.
        case standard
        /// On for the listed user ids (`userIds`, comma-separated).
        case userWithId(Set<String>)
        /// On for `percentage` percent of user ids, hashed with `groupId`.
        case gradualRolloutUserId(percentage: Double, groupId: String)
        /// On for `percentage` percent of session ids, hashed with `groupId`.
        case gradualRolloutSessionId(percentage: Double, groupId: String)
        /// On for a random `percentage` percent of evaluations.
        case gradualRolloutRandom(percentage: Double)
        /// On for `rollout` percent of the values of the `stickiness` field, hashed with `groupId`.
        case flexibleRollout(rollout: Double, stickiness: String, groupId: String)
        /// On for the listed IPs and CIDR ranges (`IPs`, comma-separated).
        case remoteAddress([IPRange])
        /// On when the host's name is in the list (`hostNames`, comma-separated, any case).
        case applicationHostname(Set<String>)
        /// A strategy this library does not know (custom strategies): always off.
        case unknown(String)
    }

    /// The strategy's id in explanations: its `id` when the payload has one, else `strategies[i]:<name>`.
    let ruleID: String
    /// Where it is in the payload, for messages.
    let path: String
    /// What it does.
    let kind: Kind
    /// Constraints that must all hold, the strategy's own first, then those of its segments.
    let constraints: [UnleashConstraint]
    /// The strategy's variants (strategy variants); empty to fall back to the feature's variants.
    let variants: [UnleashVariant]
    /// The group id its variants hash with: `parameters.groupId`, else the feature's name.
    let variantGroupId: String
    /// The stickiness its variants hash on: `parameters.stickiness`, else `default` (each variant's own is ignored).
    let variantStickiness: String
}
