import ConfigDomain
import Foundation
import Targeting

/// Where `fractional` placed a context: the bucket, the range of the variant it fell in, and that variant.
struct FractionalSplit: Sendable, Hashable {
    /// What was hashed: `targetingKey` (with the flag key), or the bucketing expression.
    var hashed: String
    /// The bucket, in 0 ..< total weight.
    var bucket: UInt64
    /// The chosen variant's range: [lower, upper).
    var lower: UInt64
    var upper: UInt64
    /// The sum of the weights.
    var total: UInt64
    /// What the chosen bucket names (usually a variant's name).
    var variant: ConfigValue
}

/// flagd's `fractional`: a deterministic split of contexts into weighted buckets.
///
/// `["fractional", bucketing?, [variant, weight?], …]`: the first argument, when it is not an array,
/// is the value to hash; otherwise the hash is of the flag key and the targeting key. Each bucket
/// is a variant and an integer weight (1 when left out; a negative one counts as 0; the weights may
/// sum to at most 2^31 - 1). The 32-bit MurmurHash3 `h` of the hashed value picks the bucket
/// `(h × total) >> 32`, and the first variant whose cumulative weight exceeds it.
///
/// Anything it cannot use (no targeting key, a `null` bucketing value, a malformed bucket, a
/// weight that is not an integer, weights summing to 0 or beyond 2^31 - 1) makes it return `null`,
/// so that the flag's default variant applies, as flagd's evaluator does.
struct Fractional {
    /// The largest sum of weights: 2^31 - 1.
    static let maximumTotalWeight: UInt64 = 2_147_483_647

    let hashing: FlagdFormat.FractionalHashing

    /// The split for the evaluated arguments `values` in the scope `data`; nil when `fractional` returns `null`.
    func evaluate(_ values: [ConfigValue], data: ConfigValue) throws(LogicFailure) -> FractionalSplit? {
        switch hashing {
        case .cbor: return try typed(values, data: data)
        case .concatenatedString: return concatenated(values, data: data)
        }
    }

    // MARK: flagd's current hashing: deterministic CBOR of the value

    private func typed(_ values: [ConfigValue], data: ConfigValue) throws(LogicFailure) -> FractionalSplit? {
        guard let first = values.first else { return nil }
        let hashedValue: ConfigValue
        let hashed: String
        var buckets = values[...]
        if case .array = first {
            // The shorthand: no bucketing value, so the flag key and the targeting key, as a two-element array.
            guard case .object(let scope) = data else {
                throw LogicFailure(
                    message: "\"fractional\" without a bucketing value needs the context object, found a \(data.kind)")
            }
            guard case .string(let targetingKey)? = LogicValues.member(scope, "targetingKey"), !targetingKey.isEmpty else {
                return nil
            }
            let flagKey: ConfigValue
            switch LogicValues.member(scope, "$flagd") {
            case nil: flagKey = .string("")
            case .object(let properties)?: flagKey = LogicValues.member(properties, "flagKey") ?? .string("")
            case let other?:
                throw LogicFailure(message: "\"$flagd\" in the context is a \(other.kind), not the object flagd sets")
            }
            hashedValue = .array([flagKey, .string(targetingKey)])
            hashed = "targetingKey"
        } else {
            guard !first.isNull else { return nil }
            hashedValue = first
            hashed = "bucketing value"
            buckets = buckets.dropFirst()
        }
        guard let weights = Self.typedWeights(buckets) else { return nil }
        let hash = Murmur3.hash32(bytes: CanonicalCBOR.encode(hashedValue))
        return Self.place(hash: hash, weights: weights, hashed: hashed)
    }

    /// The buckets' variants and weights as flagd-core reads them: each an array of one or two
    /// elements, a weight an integer (not a Boolean, not `50.0`); nil when one is malformed or the
    /// total is 0 or beyond 2^31 - 1.
    private static func typedWeights(_ buckets: ArraySlice<ConfigValue>) -> [(variant: ConfigValue, weight: UInt64)]? {
        var weights: [(variant: ConfigValue, weight: UInt64)] = []
        var total: UInt64 = 0
        for bucket in buckets {
            guard case .array(let pair) = bucket, !pair.isEmpty, pair.count <= 2 else { return nil }
            var weight: UInt64 = 1
            if pair.count == 2 {
                guard case .int(let number) = pair[1] else { return nil }
                weight = number < 0 ? 0 : UInt64(number)
            }
            total = total > maximumTotalWeight ? total : total + Swift.min(weight, maximumTotalWeight + 1)
            weights.append((pair[0], weight))
        }
        return total > maximumTotalWeight || total == 0 ? nil : weights
    }

    // MARK: Hashing before that decision: the text of the flag key and targeting key

    private func concatenated(_ values: [ConfigValue], data: ConfigValue) -> FractionalSplit? {
        // flagd's Go evaluator logs what it cannot use and returns null: it never fails the evaluation.
        guard let first = values.first, case .object(let scope) = data else { return nil }
        var buckets = values[...]
        let text: String
        let hashed: String
        if case .string(let value) = first {
            text = value
            hashed = "bucketing value"
            buckets = buckets.dropFirst()
        } else {
            if first.isNull { buckets = buckets.dropFirst() }
            guard case .string(let targetingKey)? = LogicValues.member(scope, "targetingKey"), !targetingKey.isEmpty else {
                return nil
            }
            let flagKey = LogicValues.member(scope, "$flagd")?.objectValue.flatMap { $0["flagKey"]?.stringValue } ?? ""
            text = flagKey + targetingKey
            hashed = "targetingKey"
        }
        var weights: [(variant: ConfigValue, weight: UInt64)] = []
        var total: UInt64 = 0
        for bucket in buckets {
            guard case .array(let pair) = bucket, let variant = pair.first else { return nil }
            switch variant {
            case .string, .bool, .int, .double, .null: break
            case .array, .object: return nil
            }
            var weight: UInt64 = 1
            if pair.count >= 2 {
                let number: Double
                switch pair[1] {
                case .int(let whole): number = Double(whole)
                case .double(let fraction): number = fraction
                case .null: number = 1
                default: return nil
                }
                guard number == number.rounded(.towardZero), number <= Double(Self.maximumTotalWeight) else { return nil }
                weight = number < 0 ? 0 : UInt64(number)
            }
            total += weight
            weights.append((variant, weight))
        }
        guard total > 0, total <= Self.maximumTotalWeight else { return nil }
        return Self.place(hash: Murmur3.hash32(text), weights: weights, hashed: hashed)
    }

    // MARK: The bucket

    /// The bucket `(hash × total) >> 32` and the first variant whose cumulative weight exceeds it.
    private static func place(
        hash: UInt32, weights: [(variant: ConfigValue, weight: UInt64)], hashed: String
    ) -> FractionalSplit? {
        let total = weights.reduce(0) { $0 + $1.weight }
        let bucket = (UInt64(hash) * total) >> 32
        var lower: UInt64 = 0
        for (variant, weight) in weights {
            let upper = lower + weight
            if bucket < upper {
                return FractionalSplit(hashed: hashed, bucket: bucket, lower: lower, upper: upper, total: total, variant: variant)
            }
            lower = upper
        }
        return nil
    }
}
