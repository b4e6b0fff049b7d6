import Foundation

/// The lock files a SwiftPM child leaves in the temporary folder. SwiftPM names each after the path it
/// locks (`/tmp/consumer-…/.build` becomes `_tmp_consumer-…_.build.lock`) and never removes it.
enum SwiftPMLockFiles {
    /// Removes the lock files of `folder` and of every path under it. The locks of SwiftPM's shared caches stay:
    /// every SwiftPM on the machine takes them.
    static func remove(under folder: URL) {
        let temporary = FileManager.default.temporaryDirectory
        let prefix = folder.standardizedFileURL.path.replacingOccurrences(of: "/", with: "_")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? []
        for name in names where name.hasPrefix(prefix) && name.hasSuffix(".lock") {
            try? FileManager.default.removeItem(at: temporary.appendingPathComponent(name))
        }
    }
}
