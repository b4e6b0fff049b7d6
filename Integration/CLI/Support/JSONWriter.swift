import ConfigDomain
import Foundation

/// Renders a ``ConfigValue`` as indented JSON with sorted keys, for `--json` output.
enum JSONWriter {
    /// The value as pretty-printed JSON text (two-space indent, keys sorted), ending without a newline.
    static func pretty(_ value: ConfigValue) -> String {
        var out = ""
        write(value, indent: 0, to: &out)
        return out
    }

    private static func write(_ value: ConfigValue, indent: Int, to out: inout String) {
        let pad = String(repeating: "  ", count: indent + 1)
        let closing = String(repeating: "  ", count: indent)
        switch value {
        case .array(let items) where !items.isEmpty:
            out += "[\n"
            for (index, item) in items.enumerated() {
                out += pad
                write(item, indent: indent + 1, to: &out)
                out += index == items.count - 1 ? "\n" : ",\n"
            }
            out += closing + "]"
        case .object(let members) where !members.isEmpty:
            out += "{\n"
            let keys = members.keys.sorted()
            for (index, key) in keys.enumerated() {
                out += pad + ConfigValue.string(key).jsonText() + ": "
                if let member = members[key] { write(member, indent: indent + 1, to: &out) }
                out += index == keys.count - 1 ? "\n" : ",\n"
            }
            out += closing + "}"
        default:
            out += value.jsonText()
        }
    }
}

extension ConfigValue {
    /// A string value, or `null` when `text` is nil.
    static func optional(_ text: String?) -> ConfigValue { text.map { .string($0) } ?? .null }

    /// A number of seconds (or milliseconds) rounded to three decimals.
    static func rounded(_ number: Double) -> ConfigValue { .double((number * 1000).rounded() / 1000) }
}
