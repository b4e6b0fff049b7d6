import ConfigDomain
import Foundation
import SigningAdapter

/// Key set documents on disk (see `SignedKeySet`), read and written the way every command does:
/// a failure is an input `CLIFailure` (exit 2).
enum KeySetFile {
    /// The signed key set in the document at `path`.
    static func read(_ path: String) throws(CLIFailure) -> SignedKeySet {
        let bytes: Data
        do {
            bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw CLIFailure.input("cannot read the key set \(path): \(FileProblem.describe(error))")
        }
        do throws(KeySetError) {
            return try SignedKeySet(parsing: bytes)
        } catch {
            throw CLIFailure.input("\(path): \(error.message)")
        }
    }

    /// Writes `keySet`'s document to `path`, atomically; with `replacing` false, never over an existing file.
    static func write(_ keySet: SignedKeySet, to path: String, replacing: Bool) throws(CLIFailure) {
        if !replacing && FileManager.default.fileExists(atPath: path) {
            throw CLIFailure.input("cannot write the key set \(path): it already exists (create never replaces a key set)")
        }
        do {
            try keySet.document.write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw CLIFailure.input("cannot write the key set \(path): \(FileProblem.describe(error))")
        }
    }
}
