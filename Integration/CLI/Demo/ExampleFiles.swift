import Foundation

/// Finds the example config and manifest shipped with the tool (`Integration/CLI/Examples`).
///
/// SwiftPM copies them next to the executable, in `RemoteConfig_RemoteConfigCLI.resources/Examples`
/// (`.bundle` on Apple platforms); from a checkout, `Integration/CLI/Examples` works too.
struct ExampleFiles: Sendable {
    /// The folder holding `config.json` and `manifest.json`.
    var directory: URL

    /// The example config.
    var config: URL { directory.appendingPathComponent("config.json") }
    /// The example key manifest.
    var manifest: URL { directory.appendingPathComponent("manifest.json") }

    /// The example folder: `explicit` when given, otherwise the first candidate that holds both files.
    static func locate(explicit: String?) throws(CLIFailure) -> ExampleFiles {
        if let explicit {
            let files = ExampleFiles(directory: URL(fileURLWithPath: explicit))
            guard files.isComplete else {
                throw CLIFailure.input("\(explicit) does not hold config.json and manifest.json")
            }
            return files
        }
        for candidate in candidates() {
            let files = ExampleFiles(directory: candidate)
            if files.isComplete { return files }
        }
        throw CLIFailure.input(
            "the example files are not next to the executable; pass --examples <dir> (Integration/CLI/Examples in the repository)"
        )
    }

    private var isComplete: Bool {
        FileManager.default.isReadableFile(atPath: config.path) && FileManager.default.isReadableFile(atPath: manifest.path)
    }

    private static func candidates() -> [URL] {
        var result: [URL] = []
        if let executable = Bundle.main.executableURL?.resolvingSymlinksInPath() {
            let folder = executable.deletingLastPathComponent()
            for bundle in ["RemoteConfig_RemoteConfigCLI.resources", "RemoteConfig_RemoteConfigCLI.bundle"] {
                result.append(folder.appendingPathComponent(bundle).appendingPathComponent("Examples"))
                result.append(folder.appendingPathComponent(bundle).appendingPathComponent("Contents/Resources/Examples"))
            }
        }
        result.append(
            URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent("Integration/CLI/Examples"))
        return result
    }
}
