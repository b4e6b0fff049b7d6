import ConfigDomain

/// A variant definition: its name, weight, stickiness, payload and overrides.
struct UnleashVariant: Sendable, Equatable {
    /// An override: the variant is served whenever the context field holds one of the values.
    struct Override: Sendable, Equatable {
        /// The context field read.
        let contextName: String
        /// The values that select this variant, compared byte for byte.
        let values: ExactTexts
    }

    /// The variant's name, served as the feature's `.variant` key.
    let name: String
    /// Its share of the total weight.
    let weight: Int
    /// The context field whose value is hashed (`default`, `userId`, `sessionId`, `random` or a custom field).
    let stickiness: String?
    /// The payload, converted from its `type` and `value`, served as the feature's `.payload` key.
    let payload: ConfigValue?
    /// The payload as the payload carried it (`type`, `value`), for conformance checks.
    let rawPayload: RawPayload?
    /// Contexts that get this variant regardless of weight.
    let overrides: [Override]

    /// A payload as written: its `type` (`string`, `json`, `csv`, `number`) and its text.
    struct RawPayload: Sendable, Equatable {
        /// The declared type.
        let type: String
        /// The text.
        let value: String
    }
}
