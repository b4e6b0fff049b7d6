import Foundation

extension ConfigValue: CustomStringConvertible {
    /// The value as compact JSON text with object keys sorted, for messages and logs.
    public var description: String { jsonText() }

    /// Renders the value as JSON text.
    ///
    /// - Parameter sortedKeys: sorts object members by key, so equal values render equally.
    /// Doubles render so that they parse back as doubles (`1.0`, not `1`).
    public func jsonText(sortedKeys: Bool = true) -> String {
        String(decoding: jsonBytes(sortedKeys: sortedKeys), as: UTF8.self)
    }

    /// The value as UTF-8 JSON bytes.
    ///
    /// - Parameter sortedKeys: sorts object members by key, as ``jsonText(sortedKeys:)`` does.
    public func jsonData(sortedKeys: Bool = true) -> Data { Data(jsonBytes(sortedKeys: sortedKeys)) }

    /// Writes UTF-8 bytes rather than appending to a `String`, which took three times as long.
    private func jsonBytes(sortedKeys: Bool) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(64)
        write(to: &out, sortedKeys: sortedKeys)
        return out
    }

    private func write(to out: inout [UInt8], sortedKeys: Bool) {
        switch self {
        case .null: out += "null".utf8
        case .bool(let b): out += (b ? "true" : "false").utf8
        case .int(let i): out += String(i).utf8
        // `1.0` prints as `1.0`, so it parses back as a double.
        case .double(let d): out += (d.isFinite ? d.description : "null").utf8
        case .string(let s): Self.writeString(s, to: &out)
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                item.write(to: &out, sortedKeys: sortedKeys)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            let keys = sortedKeys ? members.keys.sorted() : Array(members.keys)
            for (index, key) in keys.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                Self.writeString(key, to: &out)
                out.append(UInt8(ascii: ":"))
                members[key]?.write(to: &out, sortedKeys: sortedKeys)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// A JSON string: quotes, backslashes and control characters escaped, everything else as its UTF-8.
    private static func writeString(_ s: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in s.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out += #"\""#.utf8
            case UInt8(ascii: "\\"): out += #"\\"#.utf8
            case UInt8(ascii: "\n"): out += #"\n"#.utf8
            case UInt8(ascii: "\r"): out += #"\r"#.utf8
            case UInt8(ascii: "\t"): out += #"\t"#.utf8
            case 0x08: out += #"\b"#.utf8
            case 0x0C: out += #"\f"#.utf8
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                out += #"\u00"#.utf8
                out += [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
