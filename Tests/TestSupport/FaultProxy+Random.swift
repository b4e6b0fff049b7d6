import Foundation

extension FaultProxy {
    /// A random number generator that a seed fully determines (SplitMix64), so that a soak's run of
    /// faults can be replayed: print the seed, and pass it back to run the same faults again.
    package struct SeededGenerator: RandomNumberGenerator, Sendable {
        private var state: UInt64

        /// A generator that yields the sequence of `seed`.
        package init(seed: UInt64) { state = seed }

        /// The next number of the sequence.
        package mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }
}
