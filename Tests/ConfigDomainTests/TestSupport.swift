import ConfigDomain
import Foundation
import Testing

/// Parses `bytes` and returns the typed error, or `nil` when they parse.
func parseFailure(_ bytes: [UInt8], maxDepth: Int = 64) -> JSONParseError? {
    do throws(JSONParseError) {
        _ = try JSONParser(maxDepth: maxDepth).parse(Data(bytes))
        return nil
    } catch {
        return error
    }
}

/// Parses `text` and returns the typed error, or `nil` when it parses.
func parseFailure(_ text: String, maxDepth: Int = 64) -> JSONParseError? {
    parseFailure(Array(text.utf8), maxDepth: maxDepth)
}

/// Converts with `init(configValue:)` and returns the typed error, or `nil` when it converts.
func conversionFailure<T: ConfigValueConvertible>(_ type: T.Type, _ value: ConfigValue) -> ConversionError? {
    do throws(ConversionError) {
        _ = try T(configValue: value)
        return nil
    } catch {
        return error
    }
}

/// Coerces with `init(configText:)` and returns the typed error, or `nil` when it coerces.
func textFailure<T: ConfigValueConvertible>(_ type: T.Type, _ text: String) -> ConversionError? {
    do throws(ConversionError) {
        _ = try T(configText: text)
        return nil
    } catch {
        return error
    }
}

/// Decodes with ``ConfigValueDecoder`` and returns the typed failure, or `nil` when it decodes.
func decodingFailure<T: Decodable>(_ type: T.Type, _ value: ConfigValue) -> DecodingFailure? {
    do throws(DecodingFailure) {
        _ = try ConfigValueDecoder().decode(T.self, from: value)
        return nil
    } catch {
        return error
    }
}

extension Result {
    /// The failure, if this is one.
    var failure: Failure? {
        if case .failure(let error) = self { error } else { nil }
    }
}
