import ConfigDomain
import ConfigPorts
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The JSON documents a dev server serves, reloaded when their files change.
///
/// A file is one document at `/<file name>` (and at `/`); a directory gives every `*.json` file
/// in it at `/<name>.json`. Changes are noticed by comparing each file's size, modification time
/// (to the nanosecond) and inode, which costs one `stat` per file, so ``refresh()`` runs before
/// every request and on a short timer.
///
/// Each version is decoded once, in the format `serve --format` names or its shape shows, for the
/// OFREP endpoint to evaluate. A version that is not JSON, or that its format cannot read, is refused
/// with the reason (the parser's byte offset, line and column for JSON), and the last good version
/// keeps being served.
final class DocumentLibrary: Sendable {
    /// One served version of a file.
    struct Document: Sendable, Hashable {
        /// The URL path, for example `/config.json`.
        var path: String
        /// The file it came from.
        var file: URL
        /// The bytes served.
        var body: Data
        /// The strong entity tag, from a hash of the bytes: `"9f2c…"`.
        var etag: String
        /// When this version was first seen (whole seconds, strictly later than the previous version's).
        var lastModified: Date
        /// ``lastModified`` as an HTTP date, formatted once per version.
        var lastModifiedText: String
        /// The format that read this version.
        var dialect: ConfigDialect
        /// This version's flags, decoded once, for the OFREP endpoint.
        var payload: DecodedPayload

        /// Versions are equal when their path, bytes (by entity tag) and date are: the payload is decoded from the bytes.
        static func == (lhs: Document, rhs: Document) -> Bool {
            lhs.path == rhs.path && lhs.etag == rhs.etag && lhs.lastModified == rhs.lastModified && lhs.dialect == rhs.dialect
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(path)
            hasher.combine(etag)
            hasher.combine(lastModified)
        }
    }

    /// What a refresh found.
    enum Change: Sendable, Hashable {
        /// A file was read for the first time.
        case loaded(Document)
        /// A file changed and its new version is served.
        case reloaded(Document)
        /// A file's new version was refused; `kept` is the version still served, if any.
        case refused(path: String, reason: String, kept: Document?)
        /// A file disappeared; its path now answers 404.
        case removed(path: String)
    }

    /// The answer for a request path.
    enum Lookup: Sendable {
        /// Serve this.
        case document(Document)
        /// The file exists but has never held valid JSON.
        case refused(reason: String)
        /// No document at this path; these exist.
        case notFound(available: [String])
    }

    private struct FileStamp: Hashable {
        var size: Int64
        var seconds: Int
        var nanoseconds: Int
        var inode: UInt64
    }

    private struct Entry {
        var file: URL
        var stamp: FileStamp?
        var good: Document?
        var refusal: String?
    }

    /// The file or directory served.
    let root: URL
    /// Whether ``root`` is a directory.
    let isDirectory: Bool
    /// The format every file is read in (`--format`), or nil to detect each file's from its shape.
    let dialect: ConfigDialect?
    /// What is known of each served file, by URL path.
    private let entries = Locked<[String: Entry]>([:])

    /// Opens `path`, or throws a one-line reason when it is neither a file nor a directory.
    init(path: String, dialect: ConfigDialect? = nil) throws(CLIFailure) {
        if URLScheme.of(path) != nil {
            throw CLIFailure.input("`serve` serves a file or a folder, and \(path) is a URL; download it first")
        }
        let url = URL(fileURLWithPath: path).standardizedFileURL
        var directory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &directory) else {
            throw CLIFailure.input("nothing to serve at \(path): no such file or directory")
        }
        root = url
        isDirectory = directory.boolValue
        self.dialect = dialect
    }

    /// The URL paths served, sorted.
    var paths: [String] {
        entries.withLock { $0.keys.sorted() }
    }

    /// The documents served now (a refused file that never held a good version is not among them), by path.
    var documents: [Document] {
        entries.withLock { entries in entries.keys.sorted().compactMap { entries[$0]?.good } }
    }

    /// Re-reads every file whose stamp changed, and returns what changed.
    func refresh() -> [Change] {
        entries.withLock { refresh(&$0) }
    }

    /// The work of ``refresh()``, done while holding the lock on `entries`.
    private func refresh(_ entries: inout [String: Entry]) -> [Change] {
        var changes: [Change] = []
        var seen: Set<String> = []
        for file in currentFiles() {
            let path = "/" + file.lastPathComponent
            seen.insert(path)
            let stamp = Self.stamp(of: file)
            let isNew = entries[path] == nil
            var entry = entries[path] ?? Entry(file: file)
            if !isNew && stamp == entry.stamp { continue }
            entry.stamp = stamp
            entry.file = file
            let bytes: Data
            do {
                bytes = try Data(contentsOf: file)
            } catch {
                let reason = "cannot read the file: \(FileProblem.describe(error))"
                entry.refusal = reason
                entries[path] = entry
                changes.append(.refused(path: path, reason: reason, kept: entry.good))
                continue
            }
            let etag = Self.entityTag(for: bytes)
            if let good = entry.good, good.etag == etag {
                entry.refusal = nil
                entries[path] = entry
                continue  // Touched, not changed: the version served is these bytes, already decoded.
            }
            let decoded: (dialect: ConfigDialect, payload: DecodedPayload)
            switch Self.decode(bytes, as: dialect) {
            case .success(let success): decoded = success
            case .failure(let refusal):
                entry.refusal = refusal.reason
                entries[path] = entry
                changes.append(.refused(path: path, reason: refusal.reason, kept: entry.good))
                continue
            }
            let fileTime = Date(timeIntervalSince1970: TimeInterval(stamp?.seconds ?? Int(Date().timeIntervalSince1970)))
            var lastModified = fileTime
            if let previous = entry.good?.lastModified, lastModified <= previous {
                lastModified = previous.addingTimeInterval(1)
            }
            let document = Document(
                path: path, file: file, body: bytes, etag: etag, lastModified: lastModified,
                lastModifiedText: HTTPDateFormat.string(from: lastModified), dialect: decoded.dialect, payload: decoded.payload)
            changes.append(entry.good == nil ? .loaded(document) : .reloaded(document))
            entry.good = document
            entry.refusal = nil
            entries[path] = entry
        }
        for path in entries.keys.sorted() where !seen.contains(path) {
            entries[path] = nil
            changes.append(.removed(path: path))
        }
        return changes
    }

    /// The document for a request path (`/` means the file when serving a single file).
    func lookup(_ requestPath: String) -> Lookup {
        entries.withLock { entries -> Lookup in
            var path = requestPath
            if path == "/" || path.isEmpty, !isDirectory, let only = entries.keys.first { path = only }
            guard let entry = entries[path] else { return .notFound(available: entries.keys.sorted()) }
            if let good = entry.good { return .document(good) }
            return .refused(reason: entry.refusal ?? "the file has not been read yet")
        }
    }

    /// Why a version cannot be served.
    struct Refusal: Error {
        /// The reason, in one line.
        var reason: String
    }

    /// `bytes` decoded in `dialect`, or in the one their shape shows; or why no format reads them.
    static func decode(_ bytes: Data, as dialect: ConfigDialect?) -> Result<
        (dialect: ConfigDialect, payload: DecodedPayload), Refusal
    > {
        let document: ConfigValue
        do throws(JSONParseError) {
            document = try ConfigFile.syntaxParser.parse(bytes)
        } catch {
            let position = Formatting.lineAndColumn(of: error.offset, in: bytes)
            return .failure(
                Refusal(
                    reason:
                        "not valid JSON at byte \(error.offset) (line \(position.line), column \(position.column)): \(error.reason)"
                ))
        }
        guard let chosen = dialect ?? ConfigDialect.detect(document) else {
            return .failure(Refusal(reason: "no format reads it: it is a JSON \(document.kind), not an object"))
        }
        do throws(PayloadError) {
            return .success((chosen, try chosen.format.decode(bytes)))
        } catch {
            let how =
                dialect == nil
                ? "its shape shows \(chosen.displayName); choose another with --format" : "--format \(chosen.rawValue)"
            return .failure(Refusal(reason: "cannot be read as \(chosen.displayName) (\(how)): \(error)"))
        }
    }

    /// A strong entity tag for `bytes`: their 64-bit FNV-1a hash and length, quoted.
    static func entityTag(for bytes: Data) -> String {
        let hash = ContentHash(of: bytes)
        let hex = String(hash.value, radix: 16)
        return "\"" + String(repeating: "0", count: 16 - hex.count) + hex + "-" + String(hash.byteCount, radix: 16) + "\""
    }

    private func currentFiles() -> [URL] {
        guard isDirectory else { return [root] }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        return names.sorted().filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }.map { root.appendingPathComponent($0) }
            .filter { Self.isRegularFile($0) }
    }

    private static func isRegularFile(_ url: URL) -> Bool {
        var info = stat()
        guard stat(url.path, &info) == 0 else { return false }
        return (info.st_mode & S_IFMT) == S_IFREG
    }

    private static func stamp(of url: URL) -> FileStamp? {
        var info = stat()
        guard stat(url.path, &info) == 0 else { return nil }
        #if canImport(Darwin)
            let time = info.st_mtimespec
        #else
            let time = info.st_mtim
        #endif
        return FileStamp(
            size: Int64(info.st_size), seconds: Int(time.tv_sec), nanoseconds: Int(time.tv_nsec), inode: UInt64(info.st_ino))
    }
}
