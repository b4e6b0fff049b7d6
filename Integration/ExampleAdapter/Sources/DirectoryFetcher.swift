import ConfigDomain
import ConfigPorts
import Foundation

/// Serves configuration from a directory of JSON files, one file per key, as a Git repository of
/// configuration is often laid out: `checkout.enabled.json` holds `true`, `checkout.max_items.json`
/// holds `20`.
///
/// The payload is one JSON object, each `<key>.json` file's value under its key, keys sorted,
/// written compactly. Hidden entries (`.git`), subfolders and other files are ignored. The ETag is
/// a digest of that object, so an unchanged directory answers "not modified", however often its
/// files are checked out again or reformatted.
public struct DirectoryFetcher: ConfigFetcher {
    /// The directory holding the `<key>.json` files.
    public let directory: URL

    /// Creates a fetcher reading `directory`.
    public init(directory: URL) {
        self.directory = directory
    }

    /// Reads and merges the files; answers "not modified" when the request already holds this digest.
    public func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchResult {
        let payload = try mergedPayload()
        let validators = Validators(etag: "\"\(ContentHash(of: payload).value)\"")
        if request.validators.etag == validators.etag { return .notModified(validators) }
        return .modified(
            FetchedPayload(
                bytes: payload, validators: validators, contentType: "application/json",
                source: directory.absoluteString))
    }

    /// One compact JSON object made of every `<key>.json` file.
    private func mergedPayload() throws(FetchError) -> Data {
        var members: [String: ConfigValue] = [:]
        for file in try keyFiles() {
            if Task.isCancelled { throw .cancelled }
            let bytes: Data
            do {
                bytes = try Data(contentsOf: file)
            } catch {
                // Removed since the listing: a checkout is replacing files; the next try sees them all.
                throw FetchError(
                    .other, retry: .backoff,
                    message: "cannot read \(file.path) (\(error.localizedDescription)); the client retries with backoff")
            }
            do throws(JSONParseError) {
                members[file.deletingPathExtension().lastPathComponent] = try JSONParser().parse(bytes)
            } catch {
                throw FetchError(
                    .invalidPayload, retry: .doNotRetry,
                    message: "\(file.path) is not valid JSON (\(error)); fix the file, then refresh")
            }
        }
        return ConfigValue.object(members).jsonData()
    }

    /// The `<key>.json` files of the directory, sorted by name.
    private func keyFiles() throws(FetchError) -> [URL] {
        if Task.isCancelled { throw .cancelled }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory) else {
            throw FetchError(
                .other, retry: .backoff,
                message: "\(directory.path) does not exist (yet); the client retries with backoff")
        }
        guard isDirectory.boolValue else {
            throw FetchError(
                .other, retry: .doNotRetry,
                message: "\(directory.path) is a file; point DirectoryFetcher at the folder holding the <key>.json files")
        }
        let entries: [URL]
        do {
            entries = try FileManager.default.contentsOfDirectory(
                at: directory, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles])
        } catch {
            throw FetchError(
                .other, retry: .doNotRetry,
                message: "cannot list \(directory.path) (\(error.localizedDescription)); check its permissions")
        }
        return
            entries
            .filter { $0.pathExtension == "json" && (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }
}
