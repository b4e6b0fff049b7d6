import ConfigDomain
import ConfigPorts
import DefaultsAdapter
import FileCacheAdapter
import Foundation
import HTTPAdapter
import RemoteConfig
import RemoteConfigApp
import TestDoubles
import Testing

// The code of "Using it in a SwiftUI app" (Modules/RemoteConfigApp/RemoteConfigApp.docc), as this
// library's side of it: compiled here (the SwiftUI parts only where SwiftUI exists), and checked
// against the article line by line by `SwiftUIArticleTests`.

/// The app's colour theme, read by its raw value.
enum Theme: String, Sendable { case light, dark, system }

enum Flags {
    static let newCheckout = ConfigKey("new_checkout", default: false)
    static let maxRetries = ConfigKey("max_retries", default: 3, rules: [.range(0...10)])
    static let theme = ConfigKey("theme", default: Theme.system)
}

func makeClient(main: URL, experiments: URL, cacheDirectory: URL, userSettings: LocalOverrideStore) throws
    -> RemoteConfigClient
{
    try RemoteConfigClient.builder(fetcher: HTTPFetcher(url: main))
        .fetcher(try HTTPFetcher(url: experiments), name: "experiments", precedence: 10)
        .cache(FileSnapshotCache(directory: cacheDirectory))
        .override(try UserDefaultsOverrideSource())
        .override(userSettings)
        .bundledDefaults(try BundledDefaults(resource: "defaults", withExtension: "plist"))
        .bundledDefaults(try BundledDefaults(settingsBundleOf: .main))
        .register(Flags.newCheckout, Flags.maxRetries, Flags.theme)
        .build()
}

struct CheckoutRules {
    @RemoteValue(Flags.newCheckout) var newCheckout
    @RemoteValue(Flags.maxRetries) var maxRetries
}

func printRetries() async {
    for await retries in CheckoutRules().$maxRetries { print("retries now \(retries)") }
}

func setTheme(cacheURL: URL) async throws {
    let userSettings = LocalOverrideStore(
        name: "user settings",
        persistence: .init(cache: FileSnapshotCache(directory: cacheURL), name: "user-settings"),
        allowedInRelease: true)

    try await userSettings.set(Flags.theme, .dark)
}

enum APISettings {
    static let timeout = ConfigKey("api.timeout", default: 30.0)
    static let retries = ConfigKey("api.retries", default: 5)
    static let url = ConfigKey("api.url", default: URL(string: "http://localhost")!)
}

func launchLikeLocus(fetcher: any ConfigFetcher) throws {
    RemoteConfigClient.processDefault = try RemoteConfigClient.builder(fetcher: fetcher)
        .register(APISettings.timeout, APISettings.retries, APISettings.url)
        .bundledDefaults(try BundledDefaults(settingsBundleOf: .main))
        .override(try UserDefaultsOverrideSource())
        .build()
}

class ServerClient {
    @RemoteValue(APISettings.timeout) var timeout
    @RemoteValue(APISettings.url) var url
}

enum AppEntries {
    static let isFeatureX = ConfigKey("is_feature_x", default: true)
}

func launchLikeConfigurationKit(mainFetcher: any ConfigFetcher, customFetcher: any ConfigFetcher) async throws {
    let client = try RemoteConfigClient.builder(fetcher: mainFetcher)
        .fetcher(customFetcher, name: "custom", precedence: 1)
        .register { AppEntries.isFeatureX }
        .build()
    try await client.refresh()
    for await isFeatureX in client.watch(AppEntries.isFeatureX) where isFeatureX {
        doFeatureX()
    }
}

/// Counts the times feature X ran, for the test that runs the ConfigurationKit-style code.
let featureXRuns = AsyncStream<Void>.makeStream()

func doFeatureX() { featureXRuns.continuation.yield() }

#if canImport(SwiftUI)
    import SwiftUI

    let mainURL = URL(string: "https://config.example.com/main.json")!
    let experimentsURL = URL(string: "https://config.example.com/experiments.json")!
    let cacheURL = FileManager.default.temporaryDirectory
    let userSettings = LocalOverrideStore(name: "user settings", allowedInRelease: true)

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
    struct ExampleApp: App {
        let config: ObservableConfig?

        init() {
            let client = try? makeClient(
                main: mainURL, experiments: experimentsURL, cacheDirectory: cacheURL, userSettings: userSettings)
            config = client.map { ObservableConfig($0) }
        }

        var body: some Scene {
            WindowGroup { CheckoutScreen().environment(\.remoteConfig, config) }
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
    struct CheckoutScreen: View {
        @Environment(\.remoteConfig) private var config

        var body: some View {
            Text(config?[Flags.newCheckout] == true ? "New checkout" : "Classic checkout")
        }
    }

    struct FeatureX: View {
        var body: some View { Text("Feature X") }
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
    struct FeatureScreen: View {
        @Environment(\.remoteConfig) private var config
        var body: some View {
            HStack {
                if config?[AppEntries.isFeatureX] == true {
                    FeatureX()
                }
            }
        }
    }
#endif

@Suite("Using it in a SwiftUI app (article)")
struct SwiftUIArticleTests {
    static let article = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Modules/RemoteConfigApp/RemoteConfigApp.docc/UsingItInASwiftUIApp.md")

    /// The article's Swift blocks written with this library (not those showing Locus or ConfigurationKit).
    static func librarySideBlocks() throws -> [[String]] {
        let text = try String(contentsOf: article, encoding: .utf8)
        var blocks: [[String]] = []
        var rest = text[...]
        while let open = rest.range(of: "```swift\n"), let close = rest[open.upperBound...].range(of: "```") {
            let lines = rest[open.upperBound..<close.lowerBound].split(separator: "\n").map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            rest = rest[close.upperBound...]
            let code = lines.filter { !$0.isEmpty && !$0.hasPrefix("//") }
            if code.contains(where: { $0.contains("SettingsContainer") || $0.contains("ConfigurationApi") }) { continue }
            blocks.append(code)
        }
        return blocks
    }

    @Test("every line of the article's own code is in this file's compiled copy, in order")
    func articleMatchesCompiledCopy() throws {
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
            .split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let blocks = try Self.librarySideBlocks()
        #expect(blocks.count == 6)
        for block in blocks {
            var position = source.startIndex
            // `@main` is left out of the copy: a test target has its own entry point.
            for line in block where line != "@main" {
                guard let found = source[position...].firstIndex(of: line) else {
                    Issue.record("the article's line \"\(line)\" is not in the compiled copy (after line \(position + 1))")
                    break
                }
                position = found + 1
            }
        }
    }

    @Test("the side-by-side counts in the headings are the code lines shown")
    func sideBySideCounts() throws {
        let text = try String(contentsOf: Self.article, encoding: .utf8)
        let side = try #require(text.range(of: "## Side by side")).upperBound
        var counts: [Int] = []
        var rest = text[side...]
        while let open = rest.range(of: "```swift\n"), let close = rest[open.upperBound...].range(of: "```") {
            let lines = rest[open.upperBound..<close.lowerBound].split(separator: "\n")
                .map { $0.trimmingCharacters(in: .whitespaces) }
            counts.append(lines.filter { !$0.isEmpty && !$0.hasPrefix("//") }.count)
            rest = rest[close.upperBound...]
        }
        #expect(counts == [17, 14, 22, 18])
        #expect(text.contains("### Locus's quick guide: 17 lines, here 14"))
        #expect(text.contains("### ConfigurationKit's example usage: 22 lines, here 18"))
    }

    @Test("the ConfigurationKit-style code runs: two providers, and feature X on the custom provider's value")
    func configurationKitStyleRuns() async throws {
        let main = InMemoryFetcher(json: #"{"is_feature_x": false}"#)
        let custom = InMemoryFetcher(json: #"{"is_feature_x": true}"#)
        let run = Task { try await launchLikeConfigurationKit(mainFetcher: main, customFetcher: custom) }
        var runs = featureXRuns.stream.makeAsyncIterator()
        await runs.next()
        run.cancel()
        #expect(main.fetchCount == 1)
        #expect(custom.fetchCount == 1)
    }

    @Test("the Locus-style launch refuses an app without a Settings.bundle, saying so")
    func locusStyleNeedsSettingsBundle() {
        #expect {
            try launchLikeLocus(fetcher: InMemoryFetcher(json: "{}"))
        } throws: { error in
            (error as? BundledDefaultsError)?.message.contains("has no Settings.bundle") == true
        }
    }
}
