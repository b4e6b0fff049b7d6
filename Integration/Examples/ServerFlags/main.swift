// ServerFlagsExample: a server's start-up, the server-side Swift way. A remote-config client
// fetches the configuration; environment variables override it through swift-configuration's
// EnvironmentVariablesProvider; the server reads its settings through swift-configuration's
// ConfigReader; and the client's events, like the server's own lines, go through swift-log.
//
// Usage: ServerFlagsExample <configuration URL>
// Prints log lines to standard output; exits 64 on a bad command line, 1 when the client cannot be built.
// (On Apple platforms swift-configuration needs macOS 15, iOS 18, tvOS 18, watchOS 11 or visionOS 2.)
import Configuration
import ConfigurationAdapter
import Foundation
import HTTPAdapter
import Logging
import LoggingAdapter
import RemoteConfig

/// The settings this server registers: their defaults and rules hold whatever the server sends.
enum Settings {
    static let newCheckout = ConfigKey("new_checkout", default: false, summary: "serve the new checkout")
    static let checkoutLimit = ConfigKey(
        "checkout_limit", default: 10, rules: [.range(1...100)], summary: "orders per minute per customer")
    static let paymentToken = ConfigKey("payment_token", default: "", secret: true, summary: "the payment provider's token")
}

LoggingSystem.bootstrap(StreamLogHandler.standardOutput)
let logger = Logger(label: "server-flags")

let arguments = CommandLine.arguments.dropFirst()
guard arguments.count == 1, let url = arguments.first.flatMap(URL.init(string:)), url.scheme != nil else {
    FileHandle.standardError.write(Data("usage: ServerFlagsExample <configuration URL>\n".utf8))
    exit(64)
}

/// Builds the client, waits for the configuration, reads the settings and logs them; the exit status.
@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
func serve(configurationAt url: URL, logger: Logger) async -> Int32 {
    let client: RemoteConfigClient
    do {
        client = try RemoteConfigClient.builder(fetcher: try HTTPFetcher(url: url))
            .override(ConfigProviderOverrideSource(EnvironmentVariablesProvider(), name: "environment"))
            .observer(LoggingObserver(logger: logger))
            .register(Settings.newCheckout, Settings.checkoutLimit, Settings.paymentToken)
            .build()
    } catch {
        logger.error("cannot build the configuration client", metadata: ["error": "\(error)"])
        return 1
    }

    // A server can wait for its configuration at start; a failure keeps the defaults and is logged by the observer.
    _ = try? await client.refresh()

    let config = ConfigReader(provider: RemoteConfigProvider(client))
    let newCheckout = config.bool(forKey: "new_checkout", default: false)
    let checkoutLimit = config.int(forKey: "checkout_limit", default: 10)
    let paymentToken = config.string(forKey: "payment_token", isSecret: true, default: "")

    logger.info(
        "serving",
        metadata: [
            "new_checkout": "\(newCheckout)", "checkout_limit": "\(checkoutLimit)",
            "payment_token": paymentToken.isEmpty ? "missing" : "set",
        ])
    await client.stop()
    return 0
}

if #available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *) {
    exit(await serve(configurationAt: url, logger: logger))
} else {
    logger.error("swift-configuration needs macOS 15, iOS 18, tvOS 18, watchOS 11 or visionOS 2")
    exit(69)
}
