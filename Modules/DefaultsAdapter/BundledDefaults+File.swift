import ConfigDomain
import Foundation

extension BundledDefaults {
    /// Reads a defaults file shipped with the app: a JSON object or a property-list dictionary of
    /// keys to values; the file's name is its source in provenance.
    ///
    /// ```swift
    /// let defaults = try BundledDefaults(contentsOf: defaultsFileURL)
    /// ```
    ///
    /// - Throws: `BundledDefaultsError`: `.unreadable` when the file cannot be read, `.malformed`
    ///   (with the parser's reason and position) when it does not decode.
    public init(contentsOf url: URL) throws(BundledDefaultsError) {
        let bytes: Data
        do {
            bytes = try Data(contentsOf: url)
        } catch {
            throw BundledDefaultsError(
                .unreadable, file: url.path,
                message: "cannot read the file (\(error.localizedDescription)); check that it is copied into the app's bundle")
        }
        do throws(PayloadError) {
            try self.init(decoding: bytes, source: url.lastPathComponent)
        } catch {
            throw BundledDefaultsError(.malformed, file: url.path, message: error.description)
        }
    }

    /// Reads the defaults file `name.ext` among `bundle`'s resources (the app's, by default).
    ///
    /// ```swift
    /// builder.bundledDefaults(try BundledDefaults(resource: "defaults", withExtension: "plist"))
    /// ```
    ///
    /// - Throws: `BundledDefaultsError` (`.unreadable`) when `bundle` has no such resource, and every
    ///   error of ``init(contentsOf:)``.
    public init(resource name: String, withExtension ext: String, in bundle: Bundle = .main) throws(BundledDefaultsError) {
        guard let url = bundle.url(forResource: name, withExtension: ext) else {
            throw BundledDefaultsError(
                .unreadable, file: "\(name).\(ext)",
                message:
                    "\(bundle.bundleURL.lastPathComponent) has no resource \(name).\(ext); add the file to the app target's resources"
            )
        }
        try self.init(contentsOf: url)
    }
}
