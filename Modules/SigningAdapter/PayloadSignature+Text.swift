import ConfigDomain
import Foundation

extension PayloadSignature {
    /// The longest key id accepted, in characters.
    public static let maxKeyIDLength = 64

    /// The signature as it travels: `keyid=<id>, config=<name>, version=<decimal>, sig=<standard base64>`,
    /// with `expires=<ISO 8601 UTC time>` before `sig` when it has an expiry.
    ///
    /// The name is percent-encoded: every byte of its UTF-8 but ASCII letters, digits, `-`, `.`,
    /// `_` and `~` is written `%XX`, so `default` stays `default` and `EU checkout` is `EU%20checkout`.
    /// The expiry is written in whole seconds, `2026-01-08T00:00:00Z`.
    public var text: String {
        let expiry = expiresAt.map { "expires=\(Self.iso8601($0)), " } ?? ""
        return "keyid=\(keyID), config=\(Self.percentEncoded(configurationName)), version=\(version), \(expiry)"
            + "sig=\(signature.base64EncodedString())"
    }

    /// Several signatures of one payload as one line: each ``text``, separated by `; `.
    public static func text(of signatures: [PayloadSignature]) -> String {
        signatures.map(\.text).joined(separator: "; ")
    }

    /// Reads one or more signatures of one payload, separated by `;` (see ``init(parsing:)`` for each).
    ///
    /// - Throws: ``ConfigDomain/SignatureError`` (`.malformed`) saying which signature and part is wrong.
    public static func list(parsing text: String) throws(SignatureError) -> [PayloadSignature] {
        guard text.count <= SnapshotMetadata.maxSignatureLength else {
            throw SignatureError(
                .malformed,
                "the signature is malformed (it is longer than \(SnapshotMetadata.maxSignatureLength) characters); "
                    + "a payload carries at most a few signatures, one per key its client's threshold needs")
        }
        let parts = text.split(separator: ";", omittingEmptySubsequences: false)
        var signatures: [PayloadSignature] = []
        for (index, part) in parts.enumerated() {
            do throws(SignatureError) {
                signatures.append(try PayloadSignature(parsing: String(part)))
            } catch  where parts.count > 1 {
                throw SignatureError(error.kind, "signature \(index + 1) of \(parts.count): \(error.message)")
            }
        }
        return signatures
    }

    /// Whether `keyID` can name a key: 1 to 64 ASCII letters, digits, `.`, `_` or `-`.
    public static func isValidKeyID(_ keyID: String) -> Bool {
        (1...maxKeyIDLength).contains(keyID.unicodeScalars.count) && keyID.unicodeScalars.allSatisfy(keyIDCharacters.contains)
    }

    private static let keyIDCharacters = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-".unicodeScalars)

    /// Reads the text form of one signature: `keyid`, `config`, `version` and `sig`, each exactly once,
    /// and `expires` at most once, in any order, separated by commas, with spaces or tabs around the
    /// parts. Names are case-insensitive; values are not.
    ///
    /// - Throws: ``ConfigDomain/SignatureError`` (`.malformed`) saying which part is wrong.
    public init(parsing text: String) throws(SignatureError) {
        func malformed(_ detail: String) -> SignatureError {
            SignatureError(
                .malformed,
                "the signature is malformed (\(detail)); expected one line such as keyid=prod-1, config=default, "
                    + "version=1767225600000, sig=<base64>, with expires=2026-01-08T00:00:00Z before sig if it expires")
        }
        guard text.count <= SnapshotMetadata.maxSignatureLength else {
            throw malformed("it is longer than \(SnapshotMetadata.maxSignatureLength) characters")
        }
        var fields: [String: String] = [:]
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let item = part.trimmingCharacters(in: CharacterSet(charactersIn: " \t"))
            guard let equals = item.firstIndex(of: "=") else {
                throw malformed(item.isEmpty ? "it has an empty part" : "\"\(Self.printable(item))\" is not name=value")
            }
            let name = item[..<equals].lowercased()
            let value = String(item[item.index(after: equals)...])
            guard ["keyid", "config", "version", "expires", "sig"].contains(name) else {
                throw malformed("unknown part \"\(Self.printable(name))\"")
            }
            guard fields.updateValue(value, forKey: name) == nil else { throw malformed("\(name) is given twice") }
        }
        guard let keyID = fields["keyid"] else { throw malformed("keyid is missing") }
        guard let versionText = fields["version"] else { throw malformed("version is missing") }
        guard let base64 = fields["sig"] else { throw malformed("sig is missing") }
        guard let encodedName = fields["config"] else {
            throw SignatureError(
                .malformed,
                "the signature names no configuration (it has no config=…): it was made in the earlier layout, which "
                    + "a client no longer accepts because it let one configuration's signature vouch for another's; "
                    + "sign the payload again with `remote-config sign --name <configuration>`")
        }
        guard let configurationName = encodedName.removingPercentEncoding else {
            throw malformed("config is not percent-encoded text")
        }
        guard Self.isValidKeyID(keyID) else {
            throw malformed("keyid must be 1 to \(Self.maxKeyIDLength) ASCII letters, digits, '.', '_' or '-'")
        }
        guard !versionText.isEmpty, versionText.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
            let version = UInt64(versionText)
        else {
            throw malformed("version must be a whole number from 0 to \(UInt64.max)")
        }
        guard !base64.isEmpty, let signature = Data(base64Encoded: base64) else {
            throw malformed("sig is not standard base64")
        }
        var expiresAt: Date?
        if let expiry = fields["expires"] {
            guard let date = try? Date(expiry, strategy: .iso8601) else {
                throw malformed("expires must be an ISO 8601 time in whole seconds, such as 2026-01-08T00:00:00Z")
            }
            expiresAt = date
        }
        self.init(
            keyID: keyID, configurationName: configurationName, version: version, expiresAt: expiresAt, signature: signature)
    }

    /// `date` in ISO 8601, UTC, whole seconds: `2026-01-08T00:00:00Z`.
    static func iso8601(_ date: Date) -> String {
        Date(timeIntervalSince1970: Double(seconds(of: date))).formatted(Date.ISO8601FormatStyle())
    }

    private static let unreservedBytes = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~".utf8)

    /// `name` with every UTF-8 byte outside ``unreservedBytes`` written `%XX`.
    private static func percentEncoded(_ name: String) -> String {
        var encoded = ""
        for byte in name.utf8 {
            if unreservedBytes.contains(byte) {
                encoded.append(Character(UnicodeScalar(byte)))
            } else {
                let hex = String(byte, radix: 16, uppercase: true)
                encoded += byte < 0x10 ? "%0" + hex : "%" + hex
            }
        }
        return encoded
    }

    /// `text` with anything but printable ASCII replaced by `?`, cut to 40 characters, for messages.
    private static func printable(_ text: String) -> String {
        String(text.unicodeScalars.prefix(40).map { $0.isASCII && $0.value >= 0x20 && $0.value < 0x7F ? Character($0) : "?" })
    }
}
