import Foundation

/// The products SwiftPM built for this package, found next to the running test binary.
enum BuiltProducts {
    /// The directory holding every built product (`.build/<triple>/debug`): the directory of the
    /// running test binary.
    static var directory: URL {
        #if os(Linux)
            return URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        #else
            if let bundle = Bundle.allBundles.first(where: { $0.bundlePath.hasSuffix(".xctest") }) {
                return bundle.bundleURL.deletingLastPathComponent()
            }
            return Bundle.main.bundleURL
        #endif
    }

    /// The executable product `name`, or an error saying how to build it.
    static func executable(named name: String) throws(ChildProcess.LaunchError) -> URL {
        let url = directory.appendingPathComponent(name)
        guard FileManager.default.isExecutableFile(atPath: url.path) else {
            throw ChildProcess.LaunchError(
                description: "\(name) is not built at \(url.path); run `swift build --build-tests` before the tests")
        }
        return url
    }
}
