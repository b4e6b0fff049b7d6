import ConfigDomain

/// One activation strategy of a feature: its kind with parameters, its constraints and segments, its variants.
struct UnleashStrategy: Sendable {
    /// The built-in strategies, with the parameters each reads.
    enum Kind: Sendable, Equatable {
        /// On for everyone.
        case standard
        /// On for the listed user ids (`userIds`, comma-separated, each trimmed; an empty one is the empty id).
        case userWithId(ExactTexts)
        /// On for `percentage` percent of user ids, hashed with `groupId`.
        case gradualRolloutUserId(percentage: Int, groupId: String)
        /// On for `percentage` percent of session ids, hashed with `groupId`.
        case gradualRolloutSessionId(percentage: Int, groupId: String)
        /// On when a random draw from 1 to 99 is below `percentage` (Unleash's engine's rule).
        case gradualRolloutRandom(percentage: UInt64)
        /// On for `rollout` percent of the values of the `stickiness` field, hashed with `groupId`
        /// (nil: the name of the feature asked for).
        case flexibleRollout(rollout: Int, stickiness: String, groupId: String?)
        /// On for the listed IPs and CIDR ranges (`IPs`, comma-separated).
        case remoteAddress([IPRange])
        /// On when the host's name is in the list (`hostNames`, comma-separated, any case).
        case applicationHostname(ExactTexts)
        /// A built-in strategy that Unleash's engine reads as never on: a gradual rollout without a
        /// `groupId`, or a percentage that is not a whole number. The parser warns why.
        case off(String)
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
