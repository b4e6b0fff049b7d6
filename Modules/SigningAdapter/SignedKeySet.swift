import ConfigDomain
import Foundation

/// A key set with the signatures it carries, and its JSON document: what a publisher hands to apps to rotate keys.
///
/// The document (`remote-config keyset create` writes one, `keyset sign` adds signatures):
///
/// ```json
/// {
///   "keys" : { "ops-b" : "<base64 public key>", "ops-c" : "…", "ops-d" : "…" },
///   "signatures" : [ { "keyid" : "ops-a", "sig" : "<base64 signature>" }, … ],
///   "threshold" : 2,
///   "version" : 2
/// }
/// ```
///
/// Each signature signs ``KeySet/signedMessage``, made from the values, so the document's spacing
/// and order do not matter.
public struct SignedKeySet: Sendable, Hashable {
    /// One key's signature of a key set.
    public struct Signature: Sendable, Hashable {
        /// The id of the key that signed.
        public var keyID: String
        /// The Ed25519 signature of ``KeySet/signedMessage``.
        public var signature: Data

        /// Creates a signature from its parts.
        public init(keyID: String, signature: Data) {
            self.keyID = keyID
            self.signature = signature
        }
    }

    /// The key set.
    public var keySet: KeySet
    /// The signatures it carries, in order; a key counts once however often it appears.
    public var signatures: [Signature]

    /// The largest document read, in bytes.
    public static let maxDocumentSize = 64 * 1024

    /// Creates a signed key set from its parts.
    public init(keySet: KeySet, signatures: [Signature] = []) {
        self.keySet = keySet
        self.signatures = signatures
    }

    /// This key set with `signer`'s signature added (replacing any earlier one by the same key id).
    ///
    /// - Throws: ``SigningError`` when the crypto library fails (it does not for a valid key).
    public func signed(by signer: Ed25519Signer) throws(SigningError) -> SignedKeySet {
        var copy = self
        copy.signatures.removeAll { $0.keyID == signer.keyID }
        copy.signatures.append(Signature(keyID: signer.keyID, signature: try signer.signature(for: keySet.signedMessage)))
        return copy
    }

    /// The distinct ids of the keys of `trusted` whose signature of this key set verifies, in key id order.
    public func signers(validIn trusted: KeySet) -> [String] {
        let message = keySet.signedMessage
        let valid = signatures.filter { trusted.key(withID: $0.keyID)?.isValidSignature($0.signature, for: message) == true }
        return Set(valid.map(\.keyID)).sorted()
    }

    /// The signatures that `trusted` does not count, with why, for messages: `stranger (not a key of that set)`.
    func uncounted(in trusted: KeySet) -> [String] {
        let message = keySet.signedMessage
        var counted: Set<String> = []
        return signatures.compactMap { entry in
            let id = entry.keyID.prefix(PayloadSignature.maxKeyIDLength)
            guard let key = trusted.key(withID: entry.keyID) else { return "\(id) (not a key of that set)" }
            guard key.isValidSignature(entry.signature, for: message) else { return "\(id) (does not match)" }
            return counted.insert(entry.keyID).inserted ? nil : "\(id) again (a key counts once)"
        }
    }

    // MARK: The JSON document

    /// The JSON document's shape.
    struct Document: Codable {
        struct Entry: Codable {
            var keyid: String
            var sig: String
        }

        var version: UInt64
        var threshold: Int
        var keys: [String: String]
        var signatures: [Entry]?
    }

    /// Reads a key set document.
    ///
    /// - Throws: ``KeySetError`` (`.malformed`) when it is not a key set document, (`.invalid`) when the
    ///   key set breaks a rule (see ``KeySet/init(version:threshold:keys:)``).
    public init(parsing document: Data) throws(KeySetError) {
        guard document.count <= Self.maxDocumentSize else {
            throw KeySetError(
                .malformed,
                "the key set document has \(document.count) bytes, more than the \(Self.maxDocumentSize) a key set needs")
        }
        let decoded: Document
        do {
            decoded = try JSONDecoder().decode(Document.self, from: document)
        } catch {
            throw KeySetError(
                .malformed,
                "the document is not a key set (\(Self.describe(error))); it should look like what `remote-config keyset create` writes"
            )
        }
        try self.init(decoded)
    }

    /// The key set `document` describes, with its signatures.
    init(_ document: Document) throws(KeySetError) {
        var keys: [Ed25519PublicKey] = []
        do throws(ConfigurationError) {
            for (keyID, base64) in document.keys.sorted(by: { $0.key < $1.key }) {
                keys.append(try Ed25519PublicKey(keyID: keyID, base64: base64))
            }
        } catch {
            throw KeySetError(.malformed, "the key set document has an unusable key: \(error.message)")
        }
        let keySet: KeySet
        do throws(ConfigurationError) {
            keySet = try KeySet(version: document.version, threshold: document.threshold, keys: keys)
        } catch {
            throw KeySetError(.invalid, "key set version \(document.version) is not valid: \(error.message)")
        }
        var signatures: [Signature] = []
        for entry in document.signatures ?? [] {
            guard let bytes = Data(base64Encoded: entry.sig) else {
                throw KeySetError(
                    .malformed, "the signature by \"\(entry.keyid.prefix(64))\" in the key set document is not standard base64")
            }
            signatures.append(Signature(keyID: entry.keyid, signature: bytes))
        }
        self.init(keySet: keySet, signatures: signatures)
    }

    /// The document's shape of this key set.
    var documentShape: Document {
        Document(
            version: keySet.version, threshold: keySet.threshold,
            keys: Dictionary(uniqueKeysWithValues: keySet.keys.map { ($0.keyID, $0.base64) }),
            signatures: signatures.map { Document.Entry(keyid: $0.keyID, sig: $0.signature.base64EncodedString()) })
    }

    /// The JSON document: keys sorted, indented, ending with a line end.
    public var document: Data { Self.encode(documentShape) }

    /// `value` as indented JSON with sorted keys and a final line end.
    static func encode<Value: Encodable>(_ value: Value) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Encoding strings, numbers, arrays and dictionaries of them cannot fail.
        return ((try? encoder.encode(value)) ?? Data("{}".utf8)) + Data("\n".utf8)
    }

    /// A few words on why JSON did not decode: `threshold is missing`, `keys.ops-a has the wrong type`.
    static func describe(_ error: any Error) -> String {
        func path(_ codingPath: [any CodingKey]) -> String {
            codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
        }
        switch error as? DecodingError {
        case .keyNotFound(let key, let context)?:
            return ([path(context.codingPath)].filter { !$0.isEmpty } + [key.stringValue]).joined(separator: ".") + " is missing"
        case .typeMismatch(_, let context)?, .valueNotFound(_, let context)?:
            return "\(path(context.codingPath)) has the wrong type"
        case .dataCorrupted(let context)?:
            return context.codingPath.isEmpty ? "it is not JSON" : "\(path(context.codingPath)) is not valid"
        default:
            return "it does not decode"
        }
    }
}
