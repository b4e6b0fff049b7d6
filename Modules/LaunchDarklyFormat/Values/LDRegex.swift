import Foundation

/// A `matches` clause value, compiled once when the payload is decoded: a regular expression searched
/// for anywhere in the attribute's text.
///
/// The engine is ICU's (`NSRegularExpression`), on every platform. LaunchDarkly's SDKs each use their
/// platform's engine (Python's `re`, Go's RE2, Java's, JavaScript's), so the dialects differ in the
/// same places between LaunchDarkly's own SDKs; `FORMAT.md` lists where ICU and Python's `re` answer
/// differently. A pattern ICU cannot compile never matches, as one Python cannot compile never does.
final class LDRegex: @unchecked Sendable {
    // NSRegularExpression is immutable and documented as safe to use from several threads at once. Nil for the
    // empty pattern, which ICU refuses and Python's `re` reads as matching everywhere.
    private let expression: NSRegularExpression?

    /// The pattern compiled, or nil when it does not compile.
    init?(_ pattern: String) {
        if pattern.isEmpty {
            expression = nil
            return
        }
        guard let expression = try? NSRegularExpression(pattern: pattern, options: []) else { return nil }
        self.expression = expression
    }

    /// Whether a match of the pattern occurs anywhere in `text`.
    func search(_ text: String) -> Bool {
        guard let expression else { return true }
        let range = NSRange(location: 0, length: (text as NSString).length)
        return expression.firstMatch(in: text, options: [], range: range) != nil
    }
}
