import ConfigDomain
import Foundation

/// A file of defaults shipped with the app (a defaults file or a `Settings.bundle`) that cannot be
/// read: which file, what is wrong, and how to fix it.
public struct BundledDefaultsError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong.
    public enum Kind: Sendable, Hashable {
        /// The file (or bundle) is missing or cannot be read.
        case unreadable
        /// The file is not the JSON object or property list expected, or a value in it has no JSON form.
        case malformed
        /// A child pane names a file the bundle does not have.
        case missingChildPane
        /// Two preferences in the bundle set a default for the same key.
        case duplicateKey
    }

    /// What is wrong.
    public var kind: Kind
    /// The file at fault, as a path inside the bundle or as given.
    public var file: String
    /// What is wrong and what to do, for a person.
    public var message: String

    /// Creates an error.
    public init(_ kind: Kind, file: String, message: String) {
        self.kind = kind
        self.file = file
        self.message = message
    }

    /// `bundled defaults Settings.bundle/Root.plist: …`.
    public var description: String { "bundled defaults \(file): \(message)" }
}
