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
        withPaddedBytes(of: text) { String(decoding: $0, as: UTF8.self) }
    }

    /// The comparable form of a condition's value: strings as above, numbers as their text, anything else as `"0"`.
    public static func padded(_ value: ConfigValue?) -> String { padded(text(of: value)) }

    /// -1, 0 or 1: how the comparable form of `value` orders against `padded`, an already padded
    /// version, by UTF-16 code units as JavaScript compares strings. The form is built on the stack.
    static func order(of value: ConfigValue?, comparedTo padded: String) -> Int {
        let text = text(of: value)
        guard text.utf8.allSatisfy({ $0 < 0x80 }) else { return LooseValue.codeUnitOrder(Self.padded(text), padded) }
        // ASCII: UTF-16 code units order as the bytes do.
        var expected = padded
        return withPaddedBytes(of: text) { actual in
            expected.withUTF8 { expected in
                for (a, b) in zip(actual, expected) where a != b { return a < b ? -1 : 1 }
                return actual.count == expected.count ? 0 : actual.count < expected.count ? -1 : 1
            }
        }
    }

    /// The text a condition's value is compared as.
    private static func text(of value: ConfigValue?) -> String {
        switch value {
        case .string(let text): text
        case .int, .double: LooseValue.text(of: value)
        default: "0"
        }
    }

    /// Calls `body` with the comparable form of `text`, written into a buffer on the stack.
    private static func withPaddedBytes<Result>(of text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        var source = text.isEmpty ? "0" : text
        return source.withUTF8 { input in
            // Each part gains at most four spaces and a dash, and the text at most `-~`.
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 6 * input.count + 8) { output in
                let count = paddedBytes(of: input, into: output)
                return body(UnsafeBufferPointer(rebasing: output[..<count]))
            }
        }
    }

    /// Writes the comparable form of `input` into `output` and returns its length.
    private static func paddedBytes(of input: UnsafeBufferPointer<UInt8>, into output: UnsafeMutableBufferPointer<UInt8>) -> Int {
        let dash = UInt8(ascii: "-")
        let dot = UInt8(ascii: ".")
        var count = 0
        func emit(_ byte: UInt8) {
            output[count] = byte
            count += 1
        }
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
                if start > lower { emit(dash) }
                let length = index - start
                let isNumber = length > 0 && input[start..<index].allSatisfy { $0 >= 48 && $0 <= 57 }
                if isNumber, length < 5 {
                    for _ in length..<5 { emit(UInt8(ascii: " ")) }
                }
                for position in start..<index { emit(input[position]) }
                start = index + 1
            }
            index += 1
        }
        if parts == 3 {
            emit(dash)
            emit(UInt8(ascii: "~"))
        }
        return count
    }
}
