import ConfigDomain
import Foundation

/// How keys are written as text: standard base64 of their raw bytes, surrounding whitespace ignored.
enum KeyEncoding {
    /// The bytes `text` encodes in standard base64.
    ///
    /// - Throws: `ConfigurationError` (`.invalidAdapterSetting`) naming `what` when it is not base64.
    static func decode(_ text: String, what: String) throws(ConfigurationError) -> Data {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, let bytes = Data(base64Encoded: trimmed) else {
            throw ConfigurationError(
                .invalidAdapterSetting,
                "the \(what) is not standard base64 (\(trimmed.count) characters); paste the whole 44-character line "
                    + "`remote-config keygen` wrote")
        }
        return bytes
    }

    /// The error for a key id that cannot name a key.
    static func invalidKeyID(_ keyID: String) -> ConfigurationError {
        ConfigurationError(
            .invalidAdapterSetting,
            "the key id \"\(keyID.prefix(80))\" is not 1 to \(PayloadSignature.maxKeyIDLength) ASCII letters, digits, "
                + "'.', '_' or '-'; pick an id such as prod-2026")
    }
}
