/// The registry's slots by key name: an open-addressing table of slot numbers, the names
/// themselves kept once, in the registry's entries.
///
/// A `[String: Int]` of 1,000 names takes 48 KB (each bucket repeats its name) and hashes every
/// name with SipHash; a cold start writes each of those pages for the first time, at 3–5 µs a page
/// here. This table is 4 bytes a bucket (8 KB for 1,000 names) and hashes with FNV-1a.
///
/// FNV-1a has no secret seed, which is safe here: the table holds only registered names (the
/// app's own), and a lookup of any other name (a payload's, say) walks at most one run of
/// occupied buckets, whose lengths the registered names alone decide.
struct NameIndex: Sendable {
    /// Slot numbers by bucket, `-1` for an empty bucket; the count is a power of two at least
    /// twice the number of names, so runs stay short.
    private var buckets: [Int32]
    private let mask: Int

    /// An empty index with room for `capacity` names.
    init(capacity: Int) {
        var count = 16
        while count < capacity * 2 { count <<= 1 }
        buckets = [Int32](repeating: -1, count: count)
        mask = count - 1
    }

    /// Adds `name` as `slot`, unless it is there already: then returns the slot it has and adds nothing.
    ///
    /// - Parameter nameOf: the name of a slot already in the index.
    mutating func insert(_ name: String, slot: Int, nameOf: (Int) -> String) -> Int? {
        switch find(name, nameOf: nameOf) {
        case .found(let existing): return existing
        case .free(let bucket):
            buckets[bucket] = Int32(truncatingIfNeeded: slot)
            return nil
        }
    }

    /// The slot of `name`, or nil when no registered key has that name.
    func slot(of name: String, nameOf: (Int) -> String) -> Int? {
        if case .found(let slot) = find(name, nameOf: nameOf) { return slot }
        return nil
    }

    /// Where a probe for a name ended.
    private enum Probe {
        /// The name's slot.
        case found(Int)
        /// The empty bucket where the name would go.
        case free(Int)
    }

    /// Walks the name's run of occupied buckets to its slot or to the first empty bucket.
    @inline(__always)
    private func find(_ name: String, nameOf: (Int) -> String) -> Probe {
        var bucket = Self.hash(name) & mask
        while true {
            let existing = buckets[bucket]
            if existing < 0 { return .free(bucket) }
            if nameOf(Int(existing)) == name { return .found(Int(existing)) }
            bucket = (bucket + 1) & mask
        }
    }

    /// FNV-1a over the name's UTF-8 bytes, its high half folded into the low one (the table uses
    /// the low bits).
    static func hash(_ name: String) -> Int {
        // `withUTF8` hands over the bytes in one buffer (a small string's copied to the stack):
        // iterating `utf8` would check the string's representation at every byte.
        var name = name
        return name.withUTF8 { bytes in
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in bytes {
                hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            }
            return Int(truncatingIfNeeded: hash ^ (hash >> 29))
        }
    }
}
