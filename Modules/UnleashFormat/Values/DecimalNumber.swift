import Targeting

/// Numbers written as text, read as Unleash's engine reads them.
enum DecimalNumber {
    /// A context field as a number, as Rust's `f64::from_str` reads it: an optional sign, then
    /// digits with an optional point and exponent (`42`, `-2.5`, `.5`, `42.`, `1e3`), or `inf`,
    /// `infinity`, `nan` in any case. Nothing else: no spaces (`" 42"`), no hexadecimal (`"0x10"`),
    /// no digit separators.
    static func parse(_ text: String) -> Double? {
        var rest = Substring(text)
        var sign = 1.0
        if let first = rest.first, first == "+" || first == "-" {
            sign = first == "-" ? -1 : 1
            rest = rest.dropFirst()
        }
        if let first = rest.first, first.isLetter {
            switch rest.lowercased() {
            case "inf", "infinity": return sign * .infinity
            case "nan": return .nan
            default: return nil
            }
        }
        guard isNumber(rest) else { return nil }
        return Double(rest).map { sign * $0 }
    }

    /// A constraint's number, as Unleash's engine compiles it: an optional sign, digits, an optional
    /// point with digits, an optional exponent (`42`, `-3`, `2.5`, `42.`, `1e3`); nil otherwise.
    static func constraintValue(_ text: String) -> Double? {
        var rest = Substring(text)
        if let first = rest.first, first == "+" || first == "-" { rest = rest.dropFirst() }
        guard let first = rest.first, first.isASCIIDigit, isNumber(rest) else { return nil }
        return DecimalNumber.parse(text)
    }

    /// Digits with an optional point (at least one digit on one side of it) and an optional exponent.
    private static func isNumber(_ text: Substring) -> Bool {
        var mantissa = text
        if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            var exponent = text[text.index(after: e)...]
            if let first = exponent.first, first == "+" || first == "-" { exponent = exponent.dropFirst() }
            guard !exponent.isEmpty, exponent.allSatisfy(\.isASCIIDigit) else { return false }
            mantissa = text[..<e]
        }
        let parts = mantissa.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.allSatisfy({ $0.allSatisfy(\.isASCIIDigit) }) else { return false }
        return parts.contains { !$0.isEmpty }
    }
}
