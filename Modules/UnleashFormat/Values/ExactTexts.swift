/// Strings to test membership in, compared by their UTF-8 bytes as Unleash's engine compares them
/// (see ``UnleashText``), in constant time: `IN` and `NOT_IN` values, `userIds`, `hostNames`, overrides.
struct ExactTexts: Sendable, Equatable {
    /// The strings, in payload order, for explanations.
    let values: [String]
    /// The strings as set members.
    private let members: Set<Member>

    init(_ values: [String]) {
        self.values = values
        self.members = Set(values.map(Member.init))
    }

    /// Whether one of the strings is `text`, byte for byte.
    func contains(_ text: String) -> Bool {
        members.contains(Member(text: text))
    }

    /// A string hashed and compared by its UTF-8 bytes (Swift's own `String` equality is canonical equivalence).
    private struct Member: Hashable, Sendable {
        let text: String

        static func == (lhs: Member, rhs: Member) -> Bool { UnleashText.equal(lhs.text, rhs.text) }

        func hash(into hasher: inout Hasher) {
            let hashed: Void? = text.utf8.withContiguousStorageIfAvailable { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
            if hashed == nil {
                for byte in text.utf8 { hasher.combine(byte) }
            }
        }
    }
}
