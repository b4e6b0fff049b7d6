import ConfigDomain
import Foundation
import TestDoubles

/// A directory of `<key>.json` files in a fresh temporary folder: what the fetcher contract serves, and how it fails.
///
/// The folder itself holds all the state (the files served, and the fault), so this is a plain
/// `Sendable` value that holds only the folder's URL: nothing in memory to share or guard.
struct ConfigDirectory: Sendable {
    /// The directory the fetcher reads.
    let url: URL

    init() {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("config-directory-\(UUID().uuidString)", isDirectory: true)
    }

    /// Where the directory waits while it is gone.
    private var away: URL { url.appendingPathExtension("away") }
    /// The file that is not JSON, while the directory has a permanent fault.
    private var broken: URL { url.appendingPathComponent("broken.json") }

    /// Writes one `<key>.json` file per member of the JSON object `payload`, replacing every file.
    func serve(_ payload: Data) throws {
        try? FileManager.default.removeItem(at: away)
        try? FileManager.default.removeItem(at: url)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        guard case .object(let members) = try JSONParser().parse(payload) else { throw NotAnObject() }
        for (key, value) in members {
            // Pretty enough for a person; the fetcher's digest ignores the formatting.
            try Data((value.jsonText() + "\n").utf8).write(to: url.appendingPathComponent("\(key).json"))
        }
    }

    /// Breaks the directory the way real ones break, or repairs it.
    func setFault(_ fault: FetcherContract.Fault?) throws {
        try repair()
        switch fault {
        case .temporary?:
            // Gone, as while a checkout is cloned again: it comes back.
            try FileManager.default.moveItem(at: url, to: away)
        case .permanent?:
            // A file that is not JSON: nothing changes until someone fixes it.
            try Data("{ \"unfinished\": ".utf8).write(to: broken)
        case nil:
            break
        }
    }

    /// Undoes either fault: brings the directory back, deletes the file that is not JSON.
    private func repair() throws {
        if FileManager.default.fileExists(atPath: away.path) { try FileManager.default.moveItem(at: away, to: url) }
        if FileManager.default.fileExists(atPath: broken.path) { try FileManager.default.removeItem(at: broken) }
    }

    /// Removes the directory.
    func remove() {
        try? FileManager.default.removeItem(at: url)
        try? FileManager.default.removeItem(at: away)
    }

    /// The payload to serve is not a JSON object, so it has no keys to write as files.
    struct NotAnObject: Error {}
}
