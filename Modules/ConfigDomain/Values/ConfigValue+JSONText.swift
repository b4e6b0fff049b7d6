import Foundation

extension ConfigValue: CustomStringConvertible {
    /// The value as compact JSON text with object keys sorted, for messages and logs.
    public var description: String { jsonText() }

    /// Renders the value as JSON text.
    ///
    /// - Parameter sortedKeys: sorts object members by key, so equal values render equally.
    /// Doubles render so that they parse back as doubles (`1.0`, not `1`).
    public func jsonText(sortedKeys: Bool = true) -> String {
        var out = ""
        write(to: &out, sortedKeys: sortedKeys)
        return out
    }

    /// The value as UTF-8 JSON bytes (keys sorted).
    public func jsonData() -> Data { Data(jsonText().utf8) }

    private func write(to out: inout String, sortedKeys: Bool) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .int(let i): out += String(i)
        case .double(let d): out += d.isFinite ? "\(d)" : "null"  // `1.0` prints as `1.0`, so it parses back as a double.
        case .string(let s): Self.writeString(s, to: &out)
        case .array(let items):
            out += "["
            for (index, item) in items.enumerated() {
                if index > 0 { out += "," }
                item.write(to: &out, sortedKeys: sortedKeys)
            }
            out += "]"
        case .object(let members):
            out += "{"
            let keys = sortedKeys ? members.keys.sorted() : Array(members.keys)
            for (index, key) in keys.enumerated() {
                if index > 0 { out += "," }
                Self.writeString(key, to: &out)
                out += ":"
                members[key]?.write(to: &out, sortedKeys: sortedKeys)
            }
            out += "}"
        }
    }

    private static func writeString(_ s: String, to out: inout String) {
        out += "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }
}
