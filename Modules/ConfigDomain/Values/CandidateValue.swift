import Foundation

/// A value offered for a key: parsed from a payload, or text typed by a person.
public enum CandidateValue: Sendable, Hashable {
    /// A value, converted with the key's strict rules.
    case value(ConfigValue)
    /// Text, coerced leniently (`yes` is `true` for a `Bool` key; JSON text for arrays).
    case text(String)
}
