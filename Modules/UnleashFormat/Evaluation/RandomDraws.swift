import ConfigDomain

/// The random draws of one decoded payload (`gradualRolloutRandom`, `random` stickiness, and
/// stickiness fields the context lacks): random, but made once per context.
///
/// A payload picks a random salt when it is decoded. A draw hashes the salt, the feature's name,
/// what the draw decides and the whole context, so the same payload and context always draw the
/// same number, and a feature's Boolean, variant and payload keys, evaluated one by one, agree.
/// Another payload (a refresh) or another context draws afresh.
struct RandomDraws: Sendable {
    /// What a draw decides, within one feature.
    enum Purpose: Hashable, Sendable {
        /// Whether the strategy at this index is on.
        case rollout(strategy: Int)
        /// Which of the strategy's variants is served (nil: of the feature's own variants).
        case variant(strategy: Int?)
    }

    /// The payload's salt.
    let salt: UInt64

    /// Draws with `salt`, else with a random one.
    init(salt: UInt64 = .random(in: .min ... .max)) {
        self.salt = salt
    }

    /// A number in `range` for `purpose` in `feature`, the same every time for the same context.
    func draw(_ range: ClosedRange<Int>, feature: String, purpose: Purpose, context: EvaluationContext) -> Int {
        var hasher = Hasher()
        hasher.combine(salt)
        hasher.combine(feature)
        hasher.combine(purpose)
        hasher.combine(context)
        let hash = UInt64(UInt(bitPattern: hasher.finalize()))
        return range.lowerBound + Int(hash % UInt64(range.count))
    }
}
