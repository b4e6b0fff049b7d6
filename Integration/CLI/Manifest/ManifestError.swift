import Foundation

/// A key manifest that cannot be used: which file, where in it, and what to change.
struct ManifestError: Error, Sendable, CustomStringConvertible {
    /// The manifest's path as given.
    var source: String
    /// Where in the manifest, for example `keys[2] "max_retries"`, or nil for the whole file.
    var location: String?
    /// What is wrong and how to fix it.
    var message: String

    /// `manifest.json: keys[2] "max_retries": the default 20 is rejected by range(0...10): …`.
    var description: String {
        [source, location, message].compactMap { $0 }.joined(separator: ": ")
    }
}
