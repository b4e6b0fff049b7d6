import Foundation

/// A key's conversion and rules, and the rejections they produce: what a ``ConfigKey`` and its
/// type-erased form (``ErasedKey``) run on a candidate value.
///
/// Rejection messages are built only when a candidate is refused: an accepted value is never
/// rendered as text here.
@usableFromInline
struct KeyChecks<Value: Sendable>: Sendable {
    // In this order, the flag last: it then shares padding with the converter's own flag (see
    // `ValueConverter`), and a key's typed state is 16 bytes smaller.
    @usableFromInline let name: String
    @usableFromInline let rules: [ValidationRule<Value>]
    @usableFromInline let converter: ValueConverter<Value>
    @usableFromInline let isSecret: Bool

    @inlinable
    init(name: String, isSecret: Bool, converter: ValueConverter<Value>, rules: [ValidationRule<Value>]) {
        self.name = name
        self.isSecret = isSecret
        self.converter = converter
        self.rules = rules
    }

    /// Converts `value` and runs every rule; throws the first rejection.
    @usableFromInline
    func accepting(_ value: ConfigValue, origin: String?) throws(Rejection) -> Value {
        let typed: Value
        do throws(ConversionError) {
            typed = try converter.fromValue(value)
        } catch {
            throw rejection(
                found: value.jsonText(), secrets: Self.leafTexts(of: value), rule: "type(\(converter.typeName))",
                reason: error.reason, origin: origin)
        }
        if rules.isEmpty { return typed }
        try validate(typed, rendered: { value.jsonText() }, secrets: { Self.leafTexts(of: value) }, origin: origin)
        return typed
    }

    /// Coerces override text and runs every rule; throws the first rejection.
    @usableFromInline
    func accepting(text: String, origin: String?) throws(Rejection) -> Value {
        let typed: Value
        do throws(ConversionError) {
            typed = try converter.fromText(text)
        } catch {
            throw rejection(
                found: text, secrets: Self.textSecrets(text), rule: "type(\(converter.typeName))", reason: error.reason,
                origin: origin)
        }
        if rules.isEmpty { return typed }
        try validate(typed, rendered: { text }, secrets: { Self.textSecrets(text) }, origin: origin)
        return typed
    }

    /// Runs every rule on an already typed value; throws the first rejection.
    func validate(_ value: Value, origin: String?) throws(Rejection) {
        try validate(
            value, rendered: { render(value) },
            secrets: { isSecret ? converter.toValue(value).map(Self.leafTexts(of:)) ?? [] : [] }, origin: origin)
    }

    /// Renders a value for messages, redacted when the key is secret.
    @usableFromInline
    func render(_ value: Value) -> String {
        if isSecret { return Rejection.redacted }
        return converter.toValue(value)?.jsonText() ?? String(describing: value)
    }

    /// Throws the first rule's rejection; `rendered` and `secrets` are only evaluated then.
    private func validate(
        _ typed: Value, rendered: () -> String, secrets: () -> [String], origin: String?
    ) throws(Rejection) {
        for rule in rules {
            if let reason = rule.evaluate(typed) {
                throw rejection(
                    found: rendered(), secrets: secrets(), rule: rule.name, reason: reason, typed: typed, origin: origin)
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
    /// value is replaced by one that names only the rule.
    private func rejection(
        found: String, secrets: [String], rule: String, reason: String, typed: Value? = nil, origin: String?
    ) -> Rejection {
        guard isSecret else { return Rejection(key: name, value: found, rule: rule, reason: reason, origin: origin) }
        var safeReason = reason
        var hidden = secrets + [found]
        if let typed {
            let shown = String(describing: typed)
            if !shown.isEmpty, safeReason.hasPrefix(shown + " ") {
                safeReason = "the value" + safeReason.dropFirst(shown.count)
            }
            hidden.append(shown)
        }
        if hidden.contains(where: { !$0.isEmpty && safeReason.contains($0) }) {
            safeReason =
                typed == nil
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
