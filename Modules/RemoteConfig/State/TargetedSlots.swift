import ConfigDomain
import ConfigPorts
import Foundation

/// The payloads' entries for the registered keys that some payload's rules target, by slot: what an
/// evaluation of such a key reads instead of looking its name up in every payload.
///
/// Built once per set of payloads, at the activation that brings them, and shared by every state
/// made from the same payloads: a context change and a server's read for a request's context find a
/// key's rules by its slot, without hashing its name.
final class TargetedSlots: Sendable {
    /// The payloads the entries were read from, by provider.
    private let payloads: [DecodedPayload?]
    /// By slot: each provider's entry for the key (nil where its payload lacks it), for a key some
    /// payload targets; nil for every other key.
    let entries: [[PayloadEntry?]?]

    init(payloads: [DecodedPayload?], entries: [[PayloadEntry?]?]) {
        self.payloads = payloads
        self.entries = entries
    }

    /// Whether these entries were read from exactly `payloads`.
    func matches(_ payloads: [DecodedPayload?]) -> Bool {
        guard payloads.count == self.payloads.count else { return false }
        return zip(payloads, self.payloads).allSatisfy { $0 === $1 }
    }
}
