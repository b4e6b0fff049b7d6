import ConfigDomain
import Foundation
import SigningAdapter

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The key files `remote-config keygen` writes, one line each:
///
///     keyid=prod-2026, ed25519-private-key=<base64 of the 32-byte seed>     (prod-2026.key, mode 0600)
///     keyid=prod-2026, ed25519-public-key=<base64 of the 32-byte key>       (prod-2026.pub)
enum KeyFile {
    /// What a key file holds.
    enum Content {
        /// A private key: it signs, and its public key verifies.
        case privateKey(Ed25519Signer)
        /// A public key: it only verifies.
        case publicKey(Ed25519PublicKey)

        /// The public key either way.
        var publicKey: Ed25519PublicKey {
            switch self {
            case .privateKey(let signer): signer.publicKey
            case .publicKey(let key): key
            }
        }
    }

    /// The private key file's line.
    static func privateText(_ signer: Ed25519Signer) -> String {
        "keyid=\(signer.keyID), ed25519-private-key=\(signer.base64PrivateKey)\n"
    }

    /// The public key file's line.
    static func publicText(_ key: Ed25519PublicKey) -> String {
        "keyid=\(key.keyID), ed25519-public-key=\(key.base64)\n"
    }

    /// Reads the key file at `path`.
    static func read(_ path: String) throws(CLIFailure) -> Content {
        let text: String
        do {
            text = try String(contentsOf: URL(fileURLWithPath: path), encoding: .utf8)
        } catch {
            throw CLIFailure.input("cannot read the key file \(path): \(FileProblem.describe(error))")
        }
        func notAKeyFile(_ detail: String) -> CLIFailure {
            CLIFailure.input(
                "\(path) is not a remote-config key file (\(detail)); it should hold one line such as "
                    + "keyid=prod-2026, ed25519-private-key=<base64>, as `remote-config keygen` writes")
        }
        var fields: [String: String] = [:]
        for part in text.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ",") {
            let pair = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2 else { throw notAKeyFile("\"\(pair.first?.prefix(20) ?? "")\" is not name=value") }
            fields[pair[0].lowercased()] = pair[1]
        }
        guard let keyID = fields["keyid"] else { throw notAKeyFile("no keyid") }
        do throws(ConfigurationError) {
            if let base64 = fields["ed25519-private-key"] {
                return .privateKey(try Ed25519Signer(keyID: keyID, base64PrivateKey: base64))
            }
            if let base64 = fields["ed25519-public-key"] {
                return .publicKey(try Ed25519PublicKey(keyID: keyID, base64: base64))
            }
        } catch {
            throw CLIFailure.input("the key file \(path) holds an unusable key: \(error.message)")
        }
        throw notAKeyFile("no ed25519-private-key or ed25519-public-key")
    }

    /// The signer of the private key file at `path`.
    static func signer(_ path: String) throws(CLIFailure) -> Ed25519Signer {
        guard case .privateKey(let signer) = try read(path) else {
            throw CLIFailure.input(
                "\(path) holds a public key, which cannot sign; give the private key file (<key id>.key) keygen wrote")
        }
        return signer
    }

    /// The signers of the private key files at `paths`, refusing two files with one key id (a key counts once).
    static func signers(_ paths: [String]) throws(CLIFailure) -> [Ed25519Signer] {
        var signers: [Ed25519Signer] = []
        for path in paths {
            let signer = try signer(path)
            if signers.contains(where: { $0.keyID == signer.keyID }) {
                throw CLIFailure.input("two --key files hold the key id \"\(signer.keyID)\"; a key counts once: give each once")
            }
            signers.append(signer)
        }
        return signers
    }

    /// The public keys of the key files at `paths` (public or private).
    static func publicKeys(_ paths: [String]) throws(CLIFailure) -> [Ed25519PublicKey] {
        var keys: [Ed25519PublicKey] = []
        for path in paths { keys.append(try read(path).publicKey) }
        return keys
    }

    /// Writes `text` to a new file at `path` with `mode` (set when the file is created, so a private
    /// key is never readable by others), refusing to replace an existing file.
    static func write(_ text: String, to path: String, mode: mode_t) throws(CLIFailure) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL, mode)
        guard descriptor >= 0 else {
            let reason = errno == EEXIST ? "it already exists (keygen never replaces a key)" : String(cString: strerror(errno))
            throw CLIFailure.input("cannot write the key file \(path): \(reason)")
        }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        do {
            try handle.write(contentsOf: Data(text.utf8))
            try handle.close()
        } catch {
            throw CLIFailure.input("cannot write the key file \(path): \(FileProblem.describe(error))")
        }
    }
}
