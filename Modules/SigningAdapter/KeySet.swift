import ConfigDomain
import Foundation

/// The keys a client trusts, how many of them must sign a payload, and the set's version: a k-of-n key set.
///
/// A payload is accepted when at least ``threshold`` distinct keys of the set signed it. A newer
/// key set replaces this one only when signed by a threshold of this set's keys **and** a
/// threshold of its own (``KeyRing/rotate(to:)``), so no single stolen key can sign payloads or
/// hand trust to keys of its own.
///
/// ```swift
/// let root = try KeySet(version: 1, threshold: 2, keys: [opsA, opsB, opsC])  // 2 of 3
/// let verifier = Ed25519Verifier(keyRing: KeyRing(root: root, storedAt: keySetsFile))
/// ```
public struct KeySet: Sendable, Hashable {
    /// The set's version: a set replaces another only with a higher one.
    public let version: UInt64
    /// How many distinct keys of the set must sign, from 1 to the number of keys.
    public let threshold: Int
    /// The trusted keys, sorted by key id, each once.
    public let keys: [Ed25519PublicKey]

    /// Creates a key set.
    ///
    /// The same key given twice under one id counts once.
    ///
    /// - Throws: `ConfigurationError` (`.invalidAdapterSetting`) when there is no key, the threshold
    ///   is not between 1 and the number of keys, one id names two different keys, or one key has two ids
    ///   (it would count twice toward the threshold).
    public init(version: UInt64, threshold: Int, keys: [Ed25519PublicKey]) throws(ConfigurationError) {
        var byID: [String: Ed25519PublicKey] = [:]
        var idsByKey: [Data: String] = [:]
        for key in keys {
            if let known = byID[key.keyID] {
                guard known == key else {
                    throw ConfigurationError(
                        .invalidAdapterSetting,
                        "the key set has two different public keys for the key id \"\(key.keyID)\"; give each key its own id")
                }
                continue
            }
            if let other = idsByKey[key.rawRepresentation] {
                throw ConfigurationError(
                    .invalidAdapterSetting,
                    "the key set lists one public key under two key ids, \"\(other)\" and \"\(key.keyID)\": it would count "
                        + "twice toward the threshold; list each key once")
            }
            byID[key.keyID] = key
            idsByKey[key.rawRepresentation] = key.keyID
        }
        guard !byID.isEmpty else {
            throw ConfigurationError(
                .invalidAdapterSetting,
                "the key set needs at least one trusted public key; without one, every payload would be refused")
        }
        guard (1...byID.count).contains(threshold) else {
            throw ConfigurationError(
                .invalidAdapterSetting,
                "the key set's threshold is \(threshold), but it must be from 1 to its number of keys (\(byID.count)): "
                    + (threshold < 1 ? "every payload needs a signature" : "no payload could ever be accepted"))
        }
        self.version = version
        self.threshold = threshold
        self.keys = byID.keys.sorted().compactMap { byID[$0] }
    }

    /// The trusted key with id `keyID`, if any.
    public func key(withID keyID: String) -> Ed25519PublicKey? {
        keys.first { $0.keyID == keyID }
    }

    /// The key ids, in order, for messages: `ops-a, ops-b, ops-c`.
    var keyIDList: String { keys.map(\.keyID).joined(separator: ", ") }

    /// The bytes that start every signed key set message: `remote-config key set v1` and a NUL. A
    /// payload's message starts otherwise, so a key set's signature never passes for a payload's.
    public static let messagePrefix = Data("remote-config key set v1\u{0}".utf8)

    /// The exact bytes a key set's signers sign: ``messagePrefix``; the version, the threshold and
    /// the number of keys, each as 8 big-endian bytes; then for each key in key id order, the id's
    /// UTF-8 length as 8 big-endian bytes, those bytes, and the 32 raw key bytes.
    ///
    /// It is made from the set's values, not from the JSON document that carries them, so the
    /// document's layout, spacing and order are free.
    public var signedMessage: Data {
        var message = Self.messagePrefix
        func append(_ number: UInt64) { withUnsafeBytes(of: number.bigEndian) { message.append(contentsOf: $0) } }
        append(version)
        append(UInt64(threshold))
        append(UInt64(keys.count))
        for key in keys {
            let id = Data(key.keyID.utf8)
            append(UInt64(id.count))
            message.append(id)
            message.append(key.rawRepresentation)
        }
        return message
    }
}
