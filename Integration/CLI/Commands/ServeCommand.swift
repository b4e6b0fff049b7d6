import ArgumentParser
import Foundation

/// `remote-config serve <file-or-directory>`: a development config server on 127.0.0.1.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve a JSON config file (or a folder of them) on 127.0.0.1, to test an app's flags locally.",
        discussion: """
            A file is served at /<its name> (and at /); a folder serves each *.json file in it at /<name>.json. \
            Point your app's HTTPFetcher at the URL printed at start (plain HTTP is allowed for 127.0.0.1).

            Every answer carries a strong ETag (a hash of the bytes) and a Last-Modified date, and a request \
            whose If-None-Match (or If-Modified-Since) matches gets 304 Not Modified, as a CDN would answer.

            Edit the file while the server runs: the next request (or a check every half second) picks up \
            the new version. A version that is not a valid JSON object is refused, with the byte offset and \
            the reason, and the last good version keeps being served (a file that is invalid from the start \
            answers 503 until it is fixed).

            Each request is logged: method, path, status, the validators sent and answered, and bytes.

            Push: GET /events (or /events/<name>.json in a folder) is a server-sent-events stream that sends \
            the current ETag at once, then each new one as the file changes (data: <ETag>, id: <n>), and a \
            heartbeat comment every 15 seconds. Point an SSEChangeSignalSource at it.

            OFREP (OpenFeature Remote Evaluation Protocol): POST /ofrep/v1/evaluate/flags (or \
            /<name>.json/ofrep/v1/evaluate/flags in a folder) evaluates every flag of the file for the posted \
            {"context": {"targetingKey": …}}, in the file's format: the library's targeting dialect, GrowthBook, \
            Unleash, flagd, LaunchDarkly, ConfigCat, a Firebase template, an OFREP bulk answer, or plain JSON \
            (each member a STATIC flag). The shape of each file decides, or --format names the format of every \
            file; a file no format reads is refused with the reason (a single file: serve does not start). Each \
            answer has an ETag (304 on If-None-Match); POST …/ofrep/v1/evaluate/flags/<key> evaluates one flag; \
            GET …/ofrep/v1/events sends a refetchEvaluation event when the file changes. Point an OFREPFetcher, \
            or OpenFeature's OFREP provider, at the OFREP base URL printed at start.

            Simulate trouble to see how your app copes:
              --delay 2                      answer every request 2 seconds late
              --status 503 --retry-after 30  answer 503 with Retry-After: 30
              --truncate                     cut the body in half and close the connection
              --fail-rate 0.3 --status 500   only 30% of requests fail (repeatable with --seed)

            Sign what is served, to test a client that requires signatures:
              --sign-with keys/dev.key       each 200 carries X-Config-Signature, and /config.json.sig is served
              --name checkout                sign for the client's configuration "checkout" (default: default);
                                             every file served is signed for that one name

            Stop with Ctrl-C (or SIGTERM).

            Exit status: 0 when stopped; 1 when the file (a single file) is not valid JSON or no format reads it; \
            2 when the path does not exist or the port is in use; 64 for wrong usage.

            Examples:
              remote-config serve config.json
              remote-config serve flags.json --format flagd
              remote-config serve configs/ --port 0
              remote-config serve config.json --status 503 --retry-after 30
            """)

    @Argument(help: "A JSON file, or a folder whose *.json files are each served at /<name>.json.")
    var path: String

    @Option(
        help: ArgumentHelp(
            "The format of every file served, instead of the one each file's shape shows: \(ConfigDialect.names).",
            valueName: "name"))
    var format: ConfigDialect?

    @Option(help: "The port on 127.0.0.1 to listen on; 0 picks a free port (printed at start).")
    var port: Int = 8080

    @Option(help: ArgumentHelp("Seconds to wait before answering each request (a slow network).", valueName: "seconds"))
    var delay: Double = 0

    @Option(
        help: ArgumentHelp(
            "Answer with this HTTP status instead of the document, such as 503 or 500 (every request, or --fail-rate of them).",
            valueName: "code"))
    var status: Int?

    @Option(help: ArgumentHelp("With --status: send a Retry-After header of this many seconds.", valueName: "seconds"))
    var retryAfter: Int?

    @Flag(help: "Send the document's full Content-Length but only half of its body, then close the connection.")
    var truncate = false

    @Option(
        help: ArgumentHelp(
            "The fraction of requests (0 to 1) that get the simulated failure: --status, --truncate, or 500 when neither is given.",
            valueName: "fraction"))
    var failRate: Double?

    @Option(
        help: ArgumentHelp(
            "The seed that picks which requests fail under --fail-rate; the same seed fails the same requests.",
            valueName: "number"))
    var seed: UInt64?

    @Flag(help: "Do not log each request (reloads and refusals are still printed).")
    var quiet = false

    @Option(
        name: .customLong("sign-with"),
        help: ArgumentHelp(
            "Sign what is served with this private key file (from keygen): an X-Config-Signature header on each 200, and <path>.sig.",
            valueName: "key"))
    var signWith: String?

    /// With --sign-with: the configuration every document is signed for.
    @OptionGroup var configuration: ConfigurationNameOption

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be between 0 and 65535, got \(port)") }
        guard delay >= 0, delay.isFinite else { throw ValidationError("--delay must be zero or more seconds, got \(delay)") }
        if let status, !(100...599).contains(status) || status == 200 || status == 304 {
            throw ValidationError("--status must be an HTTP status from 100 to 599 other than 200 and 304, got \(status)")
        }
        if retryAfter != nil && status == nil { throw ValidationError("--retry-after needs --status (for example --status 503)") }
        if let retryAfter, retryAfter < 0 { throw ValidationError("--retry-after must be zero or more seconds") }
        if status != nil && truncate { throw ValidationError("use either --status or --truncate, not both") }
        if let failRate, !(0...1).contains(failRate) {
            throw ValidationError("--fail-rate must be a fraction from 0 to 1, got \(failRate)")
        }
        if seed != nil && failRate == nil { throw ValidationError("--seed only matters with --fail-rate") }
        if configuration.name != "default" && signWith == nil { throw ValidationError("--name only matters with --sign-with") }
    }

    /// The trouble the flags ask for (with a random seed when none is given: compute it once).
    func makeTrouble() -> TroubleSettings {
        var settings = TroubleSettings()
        settings.delay = delay
        if let status {
            settings.fault = .status(status, retryAfter: retryAfter)
        } else if truncate {
            settings.fault = .truncate
        } else if failRate != nil {
            settings.fault = .status(500, retryAfter: nil)
        }
        settings.failRate = settings.fault == nil ? 0 : (failRate ?? 1)
        settings.seed = seed ?? UInt64.random(in: 1...999_999)
        return settings
    }

    func run() async throws {
        try await reportingFailures {
            let console = Console.shared
            let signals = SignalWaiter()
            defer { signals.cancel() }
            let library = try DocumentLibrary(path: path, dialect: format)
            // A single file that no format reads is refused before the server starts: there would be nothing to serve.
            if !library.isDirectory, let bytes = FileManager.default.contents(atPath: library.root.path),
                case .failure(let refusal) = DocumentLibrary.decode(bytes, as: format)
            {
                throw CLIFailure.problem("cannot serve \(path): \(refusal.reason)")
            }
            let trouble = makeTrouble()
            let signer = try signWith.map { path throws(CLIFailure) in
                DocumentSigner(try KeyFile.signer(path), configurationName: configuration.name)
            }
            let server = try await DevConfigServer.start(
                library: library, port: UInt16(port), trouble: trouble, signer: signer,
                onChange: { changes in
                    for change in changes { ServeLog.print(change) }
                },
                onRequest: { record in
                    guard !quiet else { return }
                    console.line(record.logLine(style: { text, styles in ServeLog.style(text, styles) }))
                })
            ServeBanner(library: library, server: server).print(console: console)
            if let summary = trouble.summary { console.line(console.styled(summary, .yellow)) }
            if let signer {
                console.line(
                    "Signing with key \(signer.signer.keyID) for the configuration \"\(signer.configurationName)\": an "
                        + "X-Config-Signature header on each 200, and <path>.sig next to each file.")
            }
            console.line("Reloads when a file changes. Press Ctrl-C to stop.")
            let received = await signals.wait()
            console.line("Stopping (\(SignalWaiter.name(of: received)))…")
            await server.stop()
            console.line("Stopped.")
        }
    }
}

/// How `serve` prints reloads and refusals.
enum ServeLog {
    /// Prints one change of the served files.
    static func print(_ change: DocumentLibrary.Change, console: Console = .shared) {
        switch change {
        case .loaded(let document):
            console.line(
                "Loaded \(document.path) (\(document.dialect.displayName), \(Formatting.bytes(document.body.count)), "
                    + "etag \(document.etag))")
            warnIfTooLarge(document, console: console)
        case .reloaded(let document):
            console.line(
                console.styled("Reloaded", .green)
                    + " \(document.path): new version (\(document.dialect.displayName), \(Formatting.bytes(document.body.count)), "
                    + "etag \(document.etag))")
            warnIfTooLarge(document, console: console)
        case .refused(let path, let reason, let kept):
            let tail =
                kept.map { "still serving the last good version (etag \($0.etag))" }
                ?? "nothing is served at this path until the file is fixed"
            console.line(console.styled("Refused", .red, .bold) + " \(path): \(reason); \(tail)")
        case .removed(let path):
            console.line("Removed \(path): the file is gone")
        }
    }

    static func style(_ text: String, _ styles: [Console.Style]) -> String { Console.shared.styled(text, styles) }

    /// Warns that apps refuse `document`, when it is over their default size limit.
    private static func warnIfTooLarge(_ document: DocumentLibrary.Document, console: Console) {
        guard let problem = PayloadSizeLimit.problem(size: document.body.count) else { return }
        console.line(console.styled("Warning", .yellow, .bold) + " \(document.path): \(problem)")
    }
}
