import Testing

@testable import RemoteConfig

/// The registry's open-addressing table of slots by name: every name inserted is found at its
/// slot, a name inserted twice keeps its first slot, and a name never inserted is not found, also
/// when names share buckets.
@Suite("Name index")
struct NameIndexTests {
    /// Names of every shape the table must tell apart: empty, long, non-ASCII, case and separator
    /// variants, and many that differ in one character.
    private static let names: [String] =
        [
            "", "a", "A", "max_retries", "max-retries", "Max_Retries", "ü", "u\u{308}", "🚀 launch",
            String(repeating: "long", count: 40),
        ]
        + (0..<600).map { "key_\($0)" }

    @Test("every inserted name is found at its slot, and no other name is")
    func insertAndFind() {
        var index = NameIndex(capacity: Self.names.count)
        for (slot, name) in Self.names.enumerated() {
            #expect(index.insert(name, slot: slot, nameOf: { Self.names[$0] }) == nil, "\(name) is new")
        }
        for (slot, name) in Self.names.enumerated() {
            #expect(index.slot(of: name, nameOf: { Self.names[$0] }) == slot)
        }
        for absent in ["key_600", "key_-1", "max_Retries", "B", "u", "long"] {
            #expect(index.slot(of: absent, nameOf: { Self.names[$0] }) == nil, "\(absent) was never inserted")
        }
    }

    @Test("a name inserted again keeps its first slot, and the table is unchanged")
    func duplicateKeepsFirstSlot() {
        let names = ["alpha", "beta", "alpha"]
        var index = NameIndex(capacity: 2)
        #expect(index.insert("alpha", slot: 0, nameOf: { names[$0] }) == nil)
        #expect(index.insert("beta", slot: 1, nameOf: { names[$0] }) == nil)
        #expect(index.insert("alpha", slot: 2, nameOf: { names[$0] }) == 0)
        #expect(index.slot(of: "alpha", nameOf: { names[$0] }) == 0)
    }

    @Test("names that share a bucket are all found: the table probes past the ones it passes")
    func collisions() {
        // Six names that all hash to one bucket of a 16-bucket table (the smallest there is).
        let mask = 15
        var sameBucket: [String] = []
        var candidate = 0
        while sameBucket.count < 6 {
            let name = "n\(candidate)"
            if NameIndex.hash(name) & mask == NameIndex.hash("n0") & mask { sameBucket.append(name) }
            candidate += 1
        }
        var index = NameIndex(capacity: 6)
        for (slot, name) in sameBucket.enumerated() {
            #expect(index.insert(name, slot: slot, nameOf: { sameBucket[$0] }) == nil)
        }
        for (slot, name) in sameBucket.enumerated() {
            #expect(index.slot(of: name, nameOf: { sameBucket[$0] }) == slot)
        }
        #expect(index.slot(of: "n-absent", nameOf: { sameBucket[$0] }) == nil)
    }

    @Test("an empty index finds nothing")
    func empty() {
        let index = NameIndex(capacity: 0)
        #expect(index.slot(of: "anything", nameOf: { _ in "" }) == nil)
    }
}
