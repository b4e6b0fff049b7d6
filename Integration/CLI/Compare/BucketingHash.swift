/// How each format places a context in a percentage rollout, as its `FORMAT.md` defines it: two formats
/// that hash differently put the same user in different buckets, so a rollout's users move when a
/// flag moves between them, whatever its percentage.
enum BucketingHash {
    /// What `dialect` hashes to bucket a context, in a sentence.
    static func description(of dialect: ConfigDialect) -> String {
        switch dialect {
        case .targeting:
            "FNV-1a 32-bit, GrowthBook's hash version 2 of the rollout's seed and its bucketBy attribute (targetingKey)"
        case .growthbook:
            "FNV-1a 32-bit of the seed and the hash attribute (id, the targeting key): hash version 1 unless the rule "
                + "says hashVersion 2"
        case .unleash:
            "MurmurHash3 (x86, 32-bit) of \"groupId:stickiness value\" (userId, else the targeting key), % 100 + 1"
        case .flagd:
            "MurmurHash3 (32-bit) of the CBOR encoding of [flag key, targeting key], flagd-core's rule"
        case .flagdString:
            "MurmurHash3 (32-bit) of the text flag key + targeting key, the rule of flagd's daemon (.concatenatedString)"
        case .launchdarkly:
            "SHA-1 of \"flag key.salt.context key\" (or \"seed.context key\"), its first 15 hex digits"
        case .configcat:
            "SHA-1 of the setting key + the user's Identifier (the targeting key), its first 7 hex digits % 100"
        case .firebase:
            "SHA-256 of \"seed.randomizationId\" (the targeting key), % 100,000,000 micro-percent"
        case .ofrep:
            "none here: the OFREP server that answered did the bucketing"
        case .json:
            "none: plain values have no rollouts"
        }
    }

    /// Whether `old` and `new` surely place a context in the same bucket of a rollout with the same seed
    /// and weights: only the same format does (GrowthBook's default hash version 1 is not the library
    /// dialect's version 2, and its seed is the feature's key).
    static func agrees(_ old: ConfigDialect, _ new: ConfigDialect) -> Bool { old == new }
}
