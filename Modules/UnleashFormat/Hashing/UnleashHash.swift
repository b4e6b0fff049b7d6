import Targeting

/// Unleash's stickiness hashes: an id and a group to a number from 1 to a normaliser.
///
/// Both hash the UTF-8 bytes of `"<groupId>:<id>"` with `Murmur3` (from `Targeting`) and map the hash to
/// `hash % normaliser + 1`:
///
/// - strategies (gradual and flexible rollouts) use seed 0 and normaliser 100, so a user is in a
///   rollout of `p` percent when their value is at most `p`;
/// - variants use seed 86028157 and the sum of the variants' weights as the normaliser.
///
/// The value depends only on the id and the group id, so it is the same on every platform and
/// run, and a user who was in a rollout of `p` percent stays in when it widens.
public enum UnleashHash {
    /// The seed Unleash uses for variant selection.
    public static let variantSeed: UInt32 = 86_028_157

    /// The strategy bucket of `id` in `groupId`: 1 ... 100.
    public static func strategyValue(id: String, groupId: String) -> Int {
        normalized(id: id, groupId: groupId, normalizer: 100, seed: 0)
    }

    /// The variant bucket of `id` in `groupId`: 1 ... `totalWeight` (which must be positive).
    public static func variantValue(id: String, groupId: String, totalWeight: Int, seed: UInt32 = variantSeed) -> Int {
        normalized(id: id, groupId: groupId, normalizer: totalWeight, seed: seed)
    }

    /// `murmur3("<groupId>:<id>", seed) % normalizer + 1`; 0 for a normaliser below 1.
    public static func normalized(id: String, groupId: String, normalizer: Int, seed: UInt32) -> Int {
        guard normalizer > 0 else { return 0 }
        return Int(Murmur3.hash32(groupId + ":" + id, seed: seed) % UInt32(clamping: normalizer)) + 1
    }
}
