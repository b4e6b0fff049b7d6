import ConfigDomain
import ConfigPorts
import Foundation
import RemoteConfig
import Testing

/// Keys of an app that ships defaults and lets the user change some settings.
enum AppKeys {
    static let newCheckout = ConfigKey("new_checkout", default: false)
    static let maxRetries = ConfigKey("max_retries", default: 3, rules: [.range(0...10)])
    static let ratio = ConfigKey("ratio", default: 0.5)
    static let title = ConfigKey("title", default: "Welcome")
    static let serverURL = ConfigKey("server_url", default: URL(string: "https://example.com")!)
    static let tags = ConfigKey("tags", default: [String]())

    static var all: [any ConfigKeyRepresentable] { [newCheckout, maxRetries, ratio, title, serverURL, tags] }
}

/// A folder of its own under the system's temporary folder, removed when the test ends.
func withTemporaryDirectory<R>(_ body: (URL) async throws -> R) async throws -> R {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("defaults-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: url) }
    return try await body(url)
}

/// A UserDefaults suite with a name of its own, removed (with everything in it) when the test ends.
func withScratchSuite<R>(_ body: (_ name: String, _ defaults: UserDefaults) async throws -> R) async throws -> R {
    let name = "remote-config-tests.\(UUID().uuidString)"
    let defaults = try #require(UserDefaults(suiteName: name))
    defer { removeSuite(name) }
    return try await body(name, defaults)
}

/// Removes a suite and everything in it.
func removeSuite(_ name: String) {
    UserDefaults(suiteName: name)?.removePersistentDomain(forName: name)
}

/// Posts `UserDefaults.didChangeNotification` for `defaults`, as Apple's Foundation does after every
/// `set(_:forKey:)`. swift-corelibs-foundation posts it only from `setPersistentDomain` and
/// `removePersistentDomain`, so on Linux a test that writes single keys posts it itself.
func postChange(of defaults: UserDefaults) {
    #if !canImport(Darwin)
        NotificationCenter.default.post(name: UserDefaults.didChangeNotification, object: defaults)
    #endif
}

/// Writes `text` as UTF-8 to `url`.
func write(_ text: String, to url: URL) throws {
    try Data(text.utf8).write(to: url)
}

/// An XML property list of a dictionary, written the way Xcode writes one.
func plist(_ body: String) -> String {
    """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
    <plist version="1.0">
    <dict>
    \(body)
    </dict>
    </plist>
    """
}

/// A client of the app's keys that never reaches a server (a first launch offline).
func offlineBuilder() -> RemoteConfigBuilder {
    RemoteConfigClient.builder(fetcher: OfflineFetcher()).register(AppKeys.all)
}

/// A fetcher with no network: every fetch fails as a refused connection.
struct OfflineFetcher: ConfigFetcher {
    func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchResult {
        throw FetchError(.transport, retry: .backoff, message: "offline")
    }
}
