import ConfigDomain
import Foundation

/// Versions made comparable as plain strings, the way GrowthBook's version operators compare them.
///
/// `v1.2.3+build` becomes the parts `1`, `2`, `3` (a leading `v` and build metadata dropped); a
/// version with exactly three parts gets a fourth part `~` so that `1.0.0` sorts after
/// `1.0.0-beta`; numeric parts are left-padded with spaces to five characters; the parts are
/// joined with `-`. Comparing two padded strings then compares the versions.
public enum VersionString {
    /// The comparable form of `text`; `"0"` stands in for an empty text.
    public static func padded(_ text: String) -> String {
        var bytes: [UInt8] = []
        forEachPaddedByte(of: text) { byte in
            bytes.append(byte)
            return true
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The comparable form of a condition's value: strings as above, numbers as their text, anything else as `"0"`.
    public static func padded(_ value: ConfigValue?) -> String { padded(text(of: value)) }

    /// -1, 0 or 1: how the comparable form of `value` orders against `padded`, an already padded
    /// version, by UTF-16 code units as JavaScript compares strings. It builds no string.
    static func order(of value: ConfigValue?, comparedTo padded: String) -> Int {
        let text = text(of: value)
        guard text.utf8.allSatisfy({ $0 < 0x80 }) else { return LooseValue.codeUnitOrder(Self.padded(text), padded) }
        var expected = padded.utf8.makeIterator()
        var order = 0
        forEachPaddedByte(of: text) { byte in
            guard let other = expected.next() else {
                order = 1
                return false
            }
            if byte != other { order = byte < other ? -1 : 1 }
            return order == 0
        }
        if order == 0, expected.next() != nil { order = -1 }
        return order
    }

    /// The text a condition's value is compared as.
    private static func text(of value: ConfigValue?) -> String {
        switch value {
        case .string(let text): text
        case .int, .double: LooseValue.text(of: value)
        default: "0"
        }
    }

    /// Hands each byte of the comparable form of `text` to `emit`, until it returns false.
    private static func forEachPaddedByte(of text: String, _ emit: (UInt8) -> Bool) {
        let source = text.isEmpty ? "0" : text
        let done: Void? = source.utf8.withContiguousStorageIfAvailable { paddedBytes(of: $0, emit) }
        if done == nil { Array(source.utf8).withUnsafeBufferPointer { paddedBytes(of: $0, emit) } }
    }

    private static func paddedBytes(of input: UnsafeBufferPointer<UInt8>, _ emit: (UInt8) -> Bool) {
        let dash = UInt8(ascii: "-")
        let dot = UInt8(ascii: ".")
        var lower = 0
        var upper = input.count
        if lower < upper, input[lower] == UInt8(ascii: "v") { lower += 1 }
        if let plus = input[lower..<upper].firstIndex(of: UInt8(ascii: "+")) { upper = plus }
        var parts = 1
        for index in lower..<upper where input[index] == dash || input[index] == dot { parts += 1 }
        var start = lower
        var index = lower
        while index <= upper {
            if index == upper || input[index] == dash || input[index] == dot {
                if start > lower, !emit(dash) { return }
                let length = index - start
                let isNumber = length > 0 && input[start..<index].allSatisfy { $0 >= 48 && $0 <= 57 }
                if isNumber, length < 5 {
                    for _ in length..<5 where !emit(UInt8(ascii: " ")) { return }
                }
                for position in start..<index where !emit(input[position]) { return }
                start = index + 1
            }
            index += 1
        }
        if parts == 3, emit(dash) { _ = emit(UInt8(ascii: "~")) }
    }
}
