// HummingbirdFlagsExample: a Hummingbird 2 server that answers each request with the flags of its
// own user. A remote-config client fetches a targeting payload (TargetingFormat's dialect) over
// HTTP; a middleware puts each request's user into its task-local ServiceContext, and the client,
// built with `.contextSource(ServiceContextSource())`, evaluates every plain read for that user.
// The client's periodic refresh runs as a service beside the HTTP server in one ServiceGroup,
// which SIGTERM or SIGINT shuts down gracefully.
//
// Usage: HummingbirdFlagsExample <configuration URL> [--port N] [--evaluation context|swap] [--refresh-every SECONDS]
// Prints `Listening on http://127.0.0.1:<port>` once it serves; exits 64 on a bad command line, 1 when
// the client cannot be built. See README.md for the routes.
import Foundation
import HTTPAdapter
import Hummingbird
import Logging
import RemoteConfig
import ServiceContextAdapter
import ServiceLifecycle
import ServiceLifecycleAdapter
import TargetingFormat

guard let options = Options(Array(CommandLine.arguments.dropFirst())) else {
    FileHandle.standardError.write(Data((Options.usage + "\n").utf8))
    exit(64)
}

var logger = Logger(label: "hummingbird-flags")
logger.logLevel = ProcessInfo.processInfo.environment["LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .info

let client: RemoteConfigClient
do {
    client = try RemoteConfigClient.builder(fetcher: try HTTPFetcher(url: options.url))
        .payloadFormat(TargetingJSONFormat())
        .contextSource(ServiceContextSource())
        .periodicRefresh(every: options.refreshEvery)
        .backgroundWork(.whenRun)  // the service group runs the periodic refresh (RemoteConfigService)
        .register(Flags.newCheckout, Flags.buttonColor)
        .build()
} catch {
    logger.error("cannot build the configuration client", metadata: ["error": "\(error)"])
    exit(1)
}

// Serve with the configuration in hand; a failure keeps the defaults, and the periodic refresh tries again.
do {
    _ = try await client.refresh()
} catch {
    logger.warning("first refresh failed; serving the defaults", metadata: ["error": "\(error)"])
}

let app = Application(
    router: Routes.router(client: client, evaluation: options.evaluation),
    configuration: .init(address: .hostname("127.0.0.1", port: options.port), serverName: "hummingbird-flags"),
    onServerRunning: { channel in
        FileHandle.standardOutput.write(
            Data("Listening on http://127.0.0.1:\(channel.localAddress?.port ?? options.port)\n".utf8))
    },
    logger: logger)

let group = ServiceGroup(
    services: [app, RemoteConfigService(client)], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
do {
    try await group.run()
} catch {
    logger.error("the server stopped", metadata: ["error": "\(error)"])
    exit(1)
}
