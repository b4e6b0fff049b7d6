import Foundation
import RemoteConfigApp

/// The example's settings: its servers (a local `remote-config serve`, or nothing: the example
/// then shows a first launch offline) and its cache folder, each from an environment variable.
enum ExampleEnvironment {
    static var main: URL { url("EXAMPLE_MAIN_URL", "http://127.0.0.1:9/config.json") }
    static var experiments: URL { url("EXAMPLE_EXPERIMENTS_URL", "http://127.0.0.1:9/experiments.json") }
    static var cacheDirectory: URL {
        ProcessInfo.processInfo.environment["EXAMPLE_CACHE_DIRECTORY"].map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("remote-config-swiftui-example")
    }

    private static func url(_ variable: String, _ fallback: String) -> URL {
        ProcessInfo.processInfo.environment[variable].flatMap(URL.init(string:)) ?? URL(string: fallback)!
    }

    /// What the user sets in the app.
    static let userSettings = AppConfig.userSettings(cacheDirectory: cacheDirectory)

    /// The client, installed as the process default so `@RemoteValue` finds it.
    static func installClient() throws -> RemoteConfigClient {
        let client = try AppConfig.makeClient(
            main: main, experiments: experiments, cacheDirectory: cacheDirectory, bundle: .module,
            userSettings: userSettings)
        RemoteConfigClient.processDefault = client
        return client
    }
}

#if canImport(SwiftUI)
    import SwiftUI

    @main
    struct ExampleApp: App {
        let client: RemoteConfigClient?

        init() {
            client = try? ExampleEnvironment.installClient()
            if let client { Task { try? await client.refresh() } }
        }

        var body: some Scene {
            WindowGroup {
                if #available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *), let client {
                    CheckoutScreen().remoteConfig(ObservableConfig(client))
                } else {
                    ClassicCheckoutScreen()
                }
            }
        }
    }
#else
    /// Without SwiftUI (Linux): the same client and the same reads, printed instead of drawn.
    @main
    enum HeadlessExample {
        static func main() async throws {
            let client = try ExampleEnvironment.installClient()
            let rules = CheckoutRules()
            print("before refresh: new checkout \(rules.newCheckout), attempts \(rules.attempts)")
            do {
                try await client.refresh()
            } catch {
                print("refresh failed, the shipped values stay: \(error)")
            }
            for key in [Flags.newCheckout.name, Flags.maxRetries.name, Flags.bannerText.name, Flags.theme.name] {
                print(client.view().details(forKey: key).description.split(separator: "\n")[0])
            }
            try await ExampleEnvironment.userSettings.set(Flags.theme, .dark)
            for await theme in client.watch(Flags.theme) where theme == .dark { break }  // the store's change applies
            print("after set: theme \(client[Flags.theme]) [from \(client.details(Flags.theme).layer)]")
            try await ExampleEnvironment.userSettings.remove(Flags.theme)
            for provider in client.status.providers {
                print("provider \(provider.name): \(provider.lastError.map { "failed: \($0)" } ?? "ok")")
            }
            await client.stop()
        }
    }
#endif
