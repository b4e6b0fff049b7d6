import Foundation

/// Conversion and rules: what every layer's candidate value goes through, at activation.
extension ConfigKey {
    /// Converts `value` and runs every rule: the typed value, or the first rejection.
    ///
    /// - Parameter origin: where the value came from (a layer, a variable), kept in the rejection.
    public func resolve(_ value: ConfigValue, origin: String? = nil) -> Result<Value, Rejection> {
        resolve(.value(value), origin: origin)
    }

    /// Coerces override text and runs every rule.
    public func resolve(text: String, origin: String? = nil) -> Result<Value, Rejection> {
        resolve(.text(text), origin: origin)
    }

    private func resolve(_ candidate: CandidateValue, origin: String?) -> Result<Value, Rejection> {
        converter.check(candidate, rules: details?.rules).mapError { rejection($0, of: candidate, origin: origin) }
    }

    /// Runs every rule on an already typed value.
    public func validate(_ value: Value, origin: String? = nil) -> Result<Value, Rejection> {
        guard let failure = ValidationRule.firstFailure(of: value, in: rules) else { return .success(value) }
        let secrets = isSecret ? converter.toValue(value).map(Self.leafTexts(of:)) ?? [] : []
        return .failure(
            rejection(
                found: render(value), secrets: secrets, rule: rules[failure.rule].name, reason: failure.reason,
                shown: isSecret ? String(describing: value) : nil, origin: origin))
    }

    /// Renders a value for messages, redacted when the key is secret.
    public func render(_ value: Value) -> String {
        if isSecret { return Rejection.redacted }
        return converter.toValue(value)?.jsonText() ?? String(describing: value)
    }

    /// The rejection of `candidate` for `refusal`.
    fileprivate func rejection(_ refusal: Refusal, of candidate: CandidateValue, origin: String?) -> Rejection {
        let (rule, reason, shown): (String, String, String?) =
            switch refusal {
            case .unconvertible(let error): ("type(\(converter.typeName))", error.reason, nil)
            case .refused(let index, let reason, let typed): (rules[index].name, reason, isSecret ? typed : nil)
            }
        let (found, secrets) =
            switch candidate {
            case .value(let value): (value.jsonText(), Self.leafTexts(of: value))
            case .text(let text): (text, Self.textSecrets(text))
            }
        return rejection(found: found, secrets: secrets, rule: rule, reason: reason, shown: shown, origin: origin)
    }

    /// The texts of an override that may not show in a secret key's reason.
    private static func textSecrets(_ text: String) -> [String] {
        [text, text.trimmingCharacters(in: .whitespacesAndNewlines)]
    }

    /// A rejection; for a secret key the value is redacted and the reason may not show any of `secrets`.
    ///
    /// Built-in rules start their reason with the value (`42 is outside 0...10`): for a secret key
    /// that becomes `the value is outside 0...10`. A reason that still shows any part of the
    /// value is replaced by one that names only the rule. `shown` is the typed value as text, when a rule refused it.
    private func rejection(
        found: String, secrets: [String], rule: String, reason: String, shown: String? = nil, origin: String?
    ) -> Rejection {
        guard isSecret else { return Rejection(key: name, value: found, rule: rule, reason: reason, origin: origin) }
        var safeReason = reason
        var hidden = secrets + [found]
        if let shown {
            if !shown.isEmpty, safeReason.hasPrefix(shown + " ") {
                safeReason = "the value" + safeReason.dropFirst(shown.count)
            }
            hidden.append(shown)
        }
        if hidden.contains(where: { !$0.isEmpty && safeReason.contains($0) }) {
            safeReason =
                shown == nil
                ? "the value is not a valid \(converter.typeName); details are hidden because the key is secret"
                : "the value fails \(rule); details are hidden because the key is secret"
        }
        return Rejection(key: name, value: Rejection.redacted, rule: rule, reason: safeReason, origin: origin)
    }

    /// Every piece of text a value holds (strings, numbers, object keys), to keep secrets out of reasons.
    private static func leafTexts(of value: ConfigValue) -> [String] {
        switch value {
        case .null: []
        case .bool(let b): [b ? "true" : "false"]
        case .int(let i): [String(i)]
        case .double: [value.jsonText()]
        case .string(let s): [s]
        case .array(let items): items.flatMap(leafTexts(of:))
        case .object(let members): members.flatMap { [$0.key] + leafTexts(of: $0.value) }
        }
    }
}

extension ValueConverter {
    /// Converts and checks one candidate for `key` at a client's activation: the typed value in a
    /// ``ValueBox``, or why it was refused. `origin` is only evaluated for a rejection.
    ///
    /// A method of the converter rather than of the key: activation, which does not know `Value`,
    /// then calls it without a runtime lookup of the key's generic type (see the benchmarks' README).
    package func accept(
        _ candidate: CandidateValue, for key: ConfigKey<Value>, origin: @autoclosure () -> String?
    ) -> Result<any AnyObject & Sendable, Rejection> {
        convertAndCheck(self, candidate, key.details?.rules).mapError { key.rejection($0, of: candidate, origin: origin()) }
    }
}
