import Foundation

/// The files commands take as input, read the same way by each: a failure is an input `CLIFailure` (exit 2).
enum CommandInputs {
    /// The key manifest at `path`.
    static func manifest(at path: String) throws(CLIFailure) -> KeyManifest {
        do throws(ManifestError) {
            return try KeyManifest.load(path: path)
        } catch {
            throw CLIFailure.input("invalid key manifest: \(error)")
        }
    }

    /// The bytes of the config file at `path`.
    static func config(at path: String) throws(CLIFailure) -> Data {
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw CLIFailure.input("cannot read the config \(path): \(FileProblem.describe(error))")
        }
    }
}
