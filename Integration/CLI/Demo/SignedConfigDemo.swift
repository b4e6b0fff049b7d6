import ConfigDomain
import ConfigPorts
import FileCacheAdapter
import Foundation
import HTTPAdapter
import RemoteConfig
import SigningAdapter

/// The demo's signature step: a server signs what it serves, a client that requires signatures
/// accepts it, then refuses the same payload altered on the way, and keeps its last good values.
struct SignedConfigDemo {
    /// Tells the story.
    let say: Narrator
    /// The config to serve (the example file, as published).
    let config: Data
    /// The demo's temporary folder.
    let workspace: URL

    /// Runs the step numbered `number`.
    func tell(step number: Int) async throws(CLIFailure) {
        say.step(number, "Sign the config: a tampered payload is refused")
        let folder = workspace.appendingPathComponent("signed")
        let file = folder.appendingPathComponent("config.json")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try config.write(to: file, options: .atomic)
        } catch {
            throw CLIFailure.input("cannot write \(file.path): \(FileProblem.describe(error))")
        }
        let signer: Ed25519Signer
        let verifier: Ed25519Verifier
        do throws(ConfigurationError) {
            signer = try Ed25519Signer.generate(keyID: "demo-2026")
            verifier = try Ed25519Verifier(trustedKeys: [signer.publicKey])
        } catch {
            throw CLIFailure.problem("the demo could not make its key: \(error.message)")
        }
        say.say("A key pair is made, as `remote-config keygen --key-id demo-2026` does. A server signs each version it")
        say.say("serves for the configuration \"default\" (`remote-config serve --sign-with demo-2026.key`); the app")
        say.say("trusts only the public key, and only for the configuration it reads.")

        let narrator = say
        let server = try await DevConfigServer.start(
            library: try DocumentLibrary(path: file.path), port: 0, pollInterval: 3600,
            signer: DocumentSigner(signer, configurationName: "default"),
            onChange: { _ in }, onRequest: { record in narrator.server(record.logLine()) })
        let proxy: TamperingProxy
        do throws(ConfigurationError) {
            proxy = TamperingProxy(try HTTPFetcher(url: url(of: server), configuration: .init(timeout: 5)))
        } catch {
            await server.stop()
            throw CLIFailure.input(error.message)
        }
        do throws(CLIFailure) {
            try await tell(server: server, proxy: proxy, verifier: verifier)
            await server.stop()
        } catch {
            await server.stop()
            throw error
        }
    }

    private func url(of server: DevConfigServer) -> URL {
        URL(string: server.url("/config.json")) ?? URL(fileURLWithPath: "/")
    }

    private func tell(server: DevConfigServer, proxy: TamperingProxy, verifier: Ed25519Verifier) async throws(CLIFailure) {
        let client: RemoteConfigClient
        do throws(ConfigError) {
            client = try RemoteConfigClient.builder(fetcher: proxy)
                .cache(FileSnapshotCache(directory: workspace.appendingPathComponent("signed-cache")))
                .verifyPayloads(with: verifier)
                .register(DemoFlags.all)
                .build()
        } catch {
            throw CLIFailure.problem("the demo's signed client did not build: \(error)")
        }
        do throws(CLIFailure) {
            try await refreshes(client, through: proxy)
            await client.stop()
        } catch {
            await client.stop()
            throw error
        }
    }

    private func refreshes(_ client: RemoteConfigClient, through proxy: TamperingProxy) async throws(CLIFailure) {
        say.say("A client built with .verifyPayloads(with: verifier) refreshes:")
        do throws(ConfigError) {
            _ = try await client.refresh(force: true)
        } catch {
            throw CLIFailure.problem("the signed refresh failed: \(error)")
        }
        if let signature = client.status.snapshot?.signature {
            say.say("\(say.good("200 OK")) with X-Config-Signature: \(signature.prefix(48))…")
        }
        say.say("The signature matched the exact bytes before anything parsed them, so the values apply:")
        say.detail(
            "new_checkout = \(client[DemoFlags.newCheckout])  from the \(client.details(DemoFlags.newCheckout).layer.shortName)")

        proxy.tampering = true
        say.say("Now a compromised proxy between the app and the server flips new_checkout in the payload it passes on,")
        say.say("keeping the server's signature.")
        let outcome: Result<RefreshResult, ConfigError>
        do throws(ConfigError) {
            outcome = .success(try await client.refresh(force: true))
        } catch {
            outcome = .failure(error)
        }
        guard case .failure(.signature(let refusal)) = outcome else {
            throw CLIFailure.problem("the tampered payload was not refused for its signature (\(outcome)); it must be")
        }
        say.say("The client refuses it before parsing, with a typed error: \(say.bad("signature")) (not retryable).")
        say.detail(refusal.message)
        say.say("The last good configuration stays: new_checkout = \(client[DemoFlags.newCheckout]).")
    }
}

/// A fetcher between the client and the server that, when told to, fetches unconditionally (so the
/// server answers `200`) and flips `new_checkout` in the payload: a compromised proxy or CDN.
private final class TamperingProxy: ConfigFetcher {
    private let inner: any ConfigFetcher
    private let enabled = Locked(false)

    init(_ inner: any ConfigFetcher) { self.inner = inner }

    /// Whether payloads are altered.
    var tampering: Bool {
        get { enabled.current }
        set { enabled.withLock { $0 = newValue } }
    }

    func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchResult {
        guard tampering else { return try await inner.fetch(request) }
        let result = try await inner.fetch(FetchRequest(validators: .none, configurationName: request.configurationName))
        guard case .modified(var payload) = result, case .object(var members)? = try? JSONParser().parse(payload.bytes) else {
            return result
        }
        members["new_checkout"] = .bool(members["new_checkout"]?.boolValue != true)
        payload.bytes = Data(JSONWriter.pretty(.object(members)).utf8)
        return .modified(payload)
    }
}
