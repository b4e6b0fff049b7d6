import ConfigDomain
import ConfigPorts
import Foundation

/// The key set an ``Ed25519Verifier`` trusts now: the root key set the app ships with, moved
/// forward by signed key sets (rotation), and kept in a file so that a relaunch trusts the newest.
///
/// ```swift
/// let ring = KeyRing(root: try KeySet(version: 1, threshold: 2, keys: shippedKeys), storedAt: keySetsFile)
/// let verifier = Ed25519Verifier(keyRing: ring)
/// // Later, when the app gets a new key set (from your server, or an app update):
/// try ring.rotate(to: SignedKeySet(parsing: keySetDocument))
/// ```
///
/// **Rotation** (``rotate(to:)``): a key set replaces the one trusted now only when its version is
/// higher, at least the trusted set's threshold of the trusted set's keys signed it, and at least
/// its own threshold of its own keys signed it. A refused key set changes nothing.
///
/// **Persistence.** With a file, every accepted key set is appended to it (a JSON array of key set
/// documents, written atomically), and `init` replays the file from `root`, checking each key set
/// as ``rotate(to:)`` does. A file someone rewrote can so hand trust to no key that the key sets
/// themselves did not; at worst it is deleted or cut, and the ring trusts an older accepted set
/// until the app offers the newer one again. Key sets in the file not above `root`'s version (an
/// app update that ships a newer root) are skipped.
public final class KeyRing: Sendable {
    /// The file the accepted key sets are kept in, if any.
    public let file: URL?
    /// What was wrong with ``file`` when the ring read it (unreadable, not key sets, a key set that
    /// does not follow from the one before); nil when it was fine or absent. The ring then trusts
    /// the last key set it could check, and the next accepted rotation rewrites the file.
    public let storageProblem: KeySetError?
    /// The key set trusted now, read by every verification.
    private let trusted: Locked<KeySet>
    /// The accepted key sets after `root`, in order: what the file holds. Its lock also runs one rotation at a time.
    private let chain: Locked<[SignedKeySet]>

    /// Trusts `root`, then every key set kept in `file` that follows from it.
    ///
    /// It reads the file once, here (a missing file is a first launch); ``storageProblem`` says what
    /// was wrong with it.
    public init(root: KeySet, storedAt file: URL? = nil) {
        var current = root
        var accepted: [SignedKeySet] = []
        var problem: KeySetError?
        if let file {
            switch Self.read(file) {
            case .success(let stored):
                for next in stored where next.keySet.version > current.version {
                    do throws(KeySetError) {
                        try Self.check(next, replacing: current)
                        current = next.keySet
                        accepted.append(next)
                    } catch {
                        problem = KeySetError(
                            .storage,
                            "a key set kept in \(file.path) was not trusted again: \(error.message); key set version "
                                + "\(current.version) stays trusted until the app offers the newer one again")
                        break
                    }
                }
            case .failure(let error):
                problem = error
            }
        }
        self.file = file
        self.storageProblem = problem
        self.trusted = Locked(current)
        self.chain = Locked(accepted)
    }

    /// The key set trusted now.
    public var current: KeySet { trusted.current }

    /// Trusts `next` from now on, and keeps it in ``file``, when it follows from the key set trusted now.
    ///
    /// - Returns: true when `next` is now trusted; false when it is the key set already trusted (so an
    ///   app may offer the same key set at every launch).
    /// - Throws: ``KeySetError`` (`.notNewer`, `.tooFewTrustedSignatures`, `.tooFewOwnSignatures`) when
    ///   it does not follow (see ``check(_:replacing:)``), or (`.storage`) when the file cannot be
    ///   written; either way the key set trusted before stays trusted.
    @discardableResult
    public func rotate(to next: SignedKeySet) throws(KeySetError) -> Bool {
        try chain.withLock { accepted throws(KeySetError) -> Bool in
            let current = trusted.current
            if next.keySet == current { return false }
            try Self.check(next, replacing: current)
            if let file { try Self.write(accepted + [next], to: file, keeping: current) }
            accepted.append(next)
            trusted.withLock { $0 = next.keySet }
            return true
        }
    }

    /// Checks that `next` may replace `current`: a higher version, a threshold of `current`'s keys
    /// and a threshold of its own keys signed it.
    ///
    /// - Throws: ``KeySetError`` saying which rule failed and what to do.
    public static func check(_ next: SignedKeySet, replacing current: KeySet) throws(KeySetError) {
        let version = next.keySet.version
        guard version > current.version else {
            let detail =
                version == current.version
                ? "the version trusted now, with other keys or threshold: every new key set needs a new, higher version"
                : "older than version \(current.version), which is trusted now: an old key set was replayed, or the "
                    + "publisher's version went backwards"
            throw KeySetError(
                .notNewer(version: version, current: current.version),
                "key set version \(version) is \(detail); publish it with a version above \(current.version)")
        }
        let byTrusted = next.signers(validIn: current)
        guard byTrusted.count >= current.threshold else {
            throw KeySetError(
                .tooFewTrustedSignatures(valid: byTrusted.count, threshold: current.threshold),
                "key set version \(version) is signed by \(count(byTrusted)) of the key set trusted now (version "
                    + "\(current.version): \(current.keyIDList)), which needs \(current.threshold)"
                    + notCounted(next, in: current) + "; have more of those keys sign it with "
                    + "`remote-config keyset sign <file> --key <key file>`")
        }
        let byOwn = next.signers(validIn: next.keySet)
        guard byOwn.count >= next.keySet.threshold else {
            throw KeySetError(
                .tooFewOwnSignatures(valid: byOwn.count, threshold: next.keySet.threshold),
                "key set version \(version) is signed by \(count(byOwn)) of its own (\(next.keySet.keyIDList)), and its "
                    + "threshold is \(next.keySet.threshold)" + notCounted(next, in: next.keySet)
                    + "; have its new keys sign it too, so that they are shown to work, with "
                    + "`remote-config keyset sign <file> --key <key file>`")
        }
    }

    /// `2 keys (ops-a, ops-b)`, `no key`.
    private static func count(_ ids: [String]) -> String {
        ids.isEmpty ? "no key" : "\(ids.count) key\(ids.count == 1 ? "" : "s") (\(ids.joined(separator: ", ")))"
    }

    /// ` (not counted: …)` for the signatures `trusted` does not count, or nothing.
    private static func notCounted(_ next: SignedKeySet, in trusted: KeySet) -> String {
        let uncounted = next.uncounted(in: trusted)
        return uncounted.isEmpty ? "" : " (not counted: \(uncounted.joined(separator: ", ")))"
    }

    // MARK: The file

    /// The key sets kept in `file`: none when it does not exist.
    private static func read(_ file: URL) -> Result<[SignedKeySet], KeySetError> {
        func unusable(_ detail: String) -> KeySetError {
            KeySetError(
                .storage,
                "the key sets kept in \(file.path) cannot be used (\(detail)); the root key set stays trusted until "
                    + "the app offers the newer one again, and the next accepted key set rewrites the file")
        }
        guard FileManager.default.fileExists(atPath: file.path) else { return .success([]) }
        let bytes: Data
        do {
            bytes = try Data(contentsOf: file)
        } catch {
            return .failure(unusable("it cannot be read: \(error.localizedDescription)"))
        }
        let documents: [SignedKeySet.Document]
        do {
            documents = try JSONDecoder().decode([SignedKeySet.Document].self, from: bytes)
        } catch {
            return .failure(unusable("it is not a list of key sets: \(SignedKeySet.describe(error))"))
        }
        var sets: [SignedKeySet] = []
        for document in documents {
            do throws(KeySetError) {
                sets.append(try SignedKeySet(document))
            } catch {
                return .failure(unusable(error.message))
            }
        }
        return .success(sets)
    }

    /// Replaces `file` with `sets`, atomically, creating its folder if needed.
    private static func write(_ sets: [SignedKeySet], to file: URL, keeping current: KeySet) throws(KeySetError) {
        do {
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try SignedKeySet.encode(sets.map(\.documentShape)).write(to: file, options: .atomic)
        } catch {
            throw KeySetError(
                .storage,
                "the new key set could not be kept in \(file.path) (\(error.localizedDescription)), so it was not "
                    + "trusted and key set version \(current.version) stays; give the key ring a file the app can write")
        }
    }
}
