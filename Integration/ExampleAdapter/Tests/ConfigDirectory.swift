import ConfigDomain
import Foundation
import TestDoubles

/// A directory of `<key>.json` files in a fresh temporary folder: what the fetcher contract serves, and how it fails.
actor ConfigDirectory {
    /// The directory the fetcher reads.
    nonisolated let url: URL
    private var served = Data("{}".utf8)

    init() {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("config-directory-\(UUID().uuidString)", isDirectory: true)
    }

    /// Writes one `<key>.json` file per member of the JSON object `payload`, replacing every file.
    func serve(_ payload: Data) throws {
        served = payload
        try write(payload)
    }

    /// Breaks the directory the way real ones break, or repairs it.
    func setFault(_ fault: FetcherContract.Fault?) throws {
        switch fault {
        case .temporary?:
            // Gone, as while a checkout is cloned again: it comes back.
            try FileManager.default.removeItem(at: url)
        case .permanent?:
            // A file that is not JSON: nothing changes until someone fixes it.
            try write(served)
            try Data("{ \"unfinished\": ".utf8).write(to: url.appendingPathComponent("broken.json"))
        case nil:
            try write(served)
        }
    }

    /// Removes the directory.
    nonisolated func remove() {
        try? FileManager.default.removeItem(at: url)
    }

    private func write(_ payload: Data) throws {
        try? FileManager.default.removeItem(at: url)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        guard case .object(let members) = try JSONParser().parse(payload) else { throw NotAnObject() }
        for (key, value) in members {
            // Pretty enough for a person; the fetcher's digest ignores the formatting.
            try Data((value.jsonText() + "\n").utf8).write(to: url.appendingPathComponent("\(key).json"))
        }
    }

    /// The payload to serve is not a JSON object, so it has no keys to write as files.
    struct NotAnObject: Error {}
}
