import Foundation

/// Conversion and rules: what every layer's candidate value goes through, at activation.
extension ConfigKey {
    /// Converts `value` and runs every rule: the typed value, or the first rejection.
    ///
    /// - Parameter origin: where the value came from (a layer, a variable), kept in the rejection.
    public func resolve(_ value: ConfigValue, origin: String? = nil) -> Result<Value, Rejection> {
        Result { () throws(Rejection) in try accepted(value, origin: origin) }
    }

    /// Coerces override text and runs every rule.
    public func resolve(text: String, origin: String? = nil) -> Result<Value, Rejection> {
        Result { () throws(Rejection) in try accepted(text: text, origin: origin) }
    }

    /// ``resolve(_:origin:)`` for a client's activation, which runs it for every key: a thrown rejection.
    package func accepted(_ value: ConfigValue, origin: @autoclosure () -> String?) throws(Rejection) -> Value {
        let typed: Value
        do throws(ConversionError) {
            typed = try converter.fromValue(value)
        } catch {
            throw rejection(
                found: value.jsonText(), secrets: Self.leafTexts(of: value), rule: "type(\(converter.typeName))",
                reason: error.reason, origin: origin())
        }
        if hasRules {
            try check(typed, rendered: { value.jsonText() }, secrets: { Self.leafTexts(of: value) }, origin: origin())
        }
        return typed
    }

    /// ``resolve(text:origin:)`` for a client's activation: a thrown rejection.
    package func accepted(text: String, origin: @autoclosure () -> String?) throws(Rejection) -> Value {
        try accepted(
            { () throws(ConversionError) in try converter.fromText(text) }, found: { text },
            secrets: { Self.textSecrets(text) }, origin: origin())
    }

    /// Converts with `convert` and runs every rule; `found` and `secrets` describe the candidate in a rejection.
    private func accepted(
        _ convert: () throws(ConversionError) -> Value, found: () -> String, secrets: () -> [String],
        origin: @autoclosure () -> String?
    ) throws(Rejection) -> Value {
        let typed: Value
        do throws(ConversionError) {
            typed = try convert()
        } catch {
            throw rejection(
                found: found(), secrets: secrets(), rule: "type(\(converter.typeName))", reason: error.reason, origin: origin())
        }
        if hasRules { try check(typed, rendered: found, secrets: secrets, origin: origin()) }
        return typed
    }

    /// Runs every rule on an already typed value.
    public func validate(_ value: Value, origin: String? = nil) -> Result<Value, Rejection> {
        Result { () throws(Rejection) in
            try check(
                value, rendered: { render(value) },
                secrets: { isSecret ? converter.toValue(value).map(Self.leafTexts(of:)) ?? [] : [] }, origin: origin)
            return value
        }
    }

    /// Renders a value for messages, redacted when the key is secret.
    public func render(_ value: Value) -> String {
        if isSecret { return Rejection.redacted }
        return converter.toValue(value)?.jsonText() ?? String(describing: value)
    }

    /// Throws the first rule's rejection; `rendered` and `secrets` are only evaluated then.
    private func check(
        _ typed: Value, rendered: () -> String, secrets: () -> [String], origin: @autoclosure () -> String?
    ) throws(Rejection) {
        for rule in rules {
            if let reason = rule.evaluate(typed) {
                throw rejection(
                    found: rendered(), secrets: secrets(), rule: rule.name, reason: reason,
                    shown: isSecret ? String(describing: typed) : nil, origin: origin())
            }
        }
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
