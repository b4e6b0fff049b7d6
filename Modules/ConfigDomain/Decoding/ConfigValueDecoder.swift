import Foundation

/// Decodes a `Decodable` type from a ``ConfigValue`` with Foundation's `JSONDecoder`.
///
/// The value is written as JSON text and read by `JSONDecoder`, so Foundation's rules apply:
/// - `Bool` reads only `true`/`false`; `1` and `"true"` are not Booleans.
/// - `Int`, `Int8` … `Int64` and `UInt`, `UInt8` … `UInt64` read whole numbers that fit
///   (`2.0` is `2`; `2.5`, and `300` for `Int8`, fail); `Double` and `Float` read numbers that fit.
/// - `String` reads only strings: a string is never silently a number, nor a number a string.
/// - `Decimal` reads a number as written; `Data` reads a base64 string; `URL` reads any string
///   that `URL(string:)` accepts, relative ones included.
/// - `Date` reads an ISO-8601 (RFC 3339) date-time string with a time zone, with or without
///   fractional seconds, such as `"2024-05-01T12:00:00Z"` or `"2024-05-01T14:00:00.250+02:00"`.
/// - `Optional` reads `null`, or a missing key, as `nil`.
///
/// A failure is a ``DecodingFailure`` naming the path inside the value (`items[2].price`) and
/// what was found there (`expected Double, found a JSON string "abc"`).
public struct ConfigValueDecoder: Sendable {
    /// Creates a decoder.
    public init() {}

    /// Decodes `type` from `value`, or throws where and why it does not fit.
    public func decode<T: Decodable>(_ type: T.Type, from value: ConfigValue) throws(DecodingFailure) -> T {
        do {
            return try Self.decodeJSON(T.self, from: value)
        } catch let error as DecodingError where Self.isUnplacedNumber(error) {
            throw Self.unfittingNumber(in: value, as: T.self) ?? DecodingFailure(error, in: value)
        } catch let error as DecodingError {
            throw DecodingFailure(error, in: value)
        } catch {
            throw DecodingFailure(path: "", reason: String(describing: error))
        }
    }

    private static func decodeJSON<T: Decodable>(_ type: T.Type, from value: ConfigValue) throws -> T {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom(ISO8601Text.decodeDate)
        return try decoder.decode(T.self, from: value.jsonData(sortedKeys: false))
    }

    /// Whether `error` is the one `JSONDecoder` throws for a number its Swift type cannot hold
    /// (`2.5` for an `Int`, `300` for an `Int8`): it calls the JSON invalid and gives no path
    /// (swiftlang/swift-foundation#274). The JSON text is the library's own, so it is valid.
    private static func isUnplacedNumber(_ error: DecodingError) -> Bool {
        guard case .dataCorrupted(let context) = error else { return false }
        return context.codingPath.isEmpty && context.debugDescription == "The given data was not valid JSON."
    }

    /// Finds the number of `value` that its Swift type cannot hold. Runs only when a decode failed.
    ///
    /// Setting numbers to `0`, which every number type holds, shows where: if the failure goes away
    /// when the numbers from the k-th on are 0 but not from the (k+1)-th on, the k-th does not fit.
    /// A binary search finds k in a few decodes, however many numbers the value holds.
    private static func unfittingNumber<T: Decodable>(in value: ConfigValue, as type: T.Type) -> DecodingFailure? {
        func fitsWithZeros(from start: Int) -> Bool {
            var counted = 0
            do {
                _ = try decodeJSON(T.self, from: value.zeroingNumbers(from: start, counted: &counted))
            } catch let error as DecodingError where isUnplacedNumber(error) {
                return false
            } catch {}
            return true
        }
        let paths = value.numberPaths()
        guard !paths.isEmpty, fitsWithZeros(from: 0) else { return nil }
        var (low, high) = (0, paths.count)  // Zeros from `low` on fit; from `high` on (none) they do not.
        while high - low > 1 {
            let middle = (low + high) / 2
            if fitsWithZeros(from: middle) { low = middle } else { high = middle }
        }
        let found = value.node(at: paths[low]).map(DecodingFailure.describe) ?? "a number"
        return DecodingFailure(
            path: CodingPathText.render(paths[low]),
            reason:
                "found \(found), which does not fit the number type there (a fraction for an integer, or beyond the type's range)"
        )
    }
}

/// ISO-8601 date-time text, with or without fractional seconds: the library's `Date` form.
enum ISO8601Text {
    static func date(from text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text)
    }

    static func string(from date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        let whole = date.timeIntervalSinceReferenceDate.rounded(.down) == date.timeIntervalSinceReferenceDate
        formatter.formatOptions = whole ? [.withInternetDateTime] : [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }

    /// `JSONDecoder`'s `.custom` date strategy. Foundation's `.iso8601` drops fractional seconds on
    /// older Apple platforms, and its failure has no path.
    @Sendable static func decodeDate(_ decoder: any Decoder) throws -> Date {
        guard let text = try? decoder.singleValueContainer().decode(String.self) else {
            throw DecodingError.typeMismatch(
                Date.self, .init(codingPath: decoder.codingPath, debugDescription: "expected an ISO-8601 date-time string"))
        }
        guard let date = date(from: text) else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: decoder.codingPath,
                    debugDescription:
                        "expected Date, found \(DecodingFailure.describe(.string(text))), which is not an ISO-8601 date-time with a time zone such as \"2024-05-01T12:00:00Z\""
                ))
        }
        return date
    }

    /// `JSONEncoder`'s `.custom` date strategy: UTC, with milliseconds when the date has a fraction of a second.
    @Sendable static func encodeDate(_ date: Date, _ encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(string(from: date))
    }
}
