import ConfigDomain
import ConfigPorts
import FlyingFox
import Foundation
import OFREPAdapter
import TestDoubles
import TestSupport

/// An OFREP server for tests: answers bulk evaluations with a document per targeting key (or one
/// for everyone), a strong ETag per answer, `304` on a matching `If-None-Match`, and whatever the
/// test sets instead. Records each request's context and query.
final class OFREPTestBackend: Sendable {
    /// One request as the server saw it.
    struct Seen: Sendable {
        var path: String
        var method: String
        var headers: [String: String]
        var query: [String: String]
        var body: ConfigValue?
    }

    private struct State {
        var documents: [String: Data] = [:]
        var everyone = Data(#"{"flags":[]}"#.utf8)
        var answer: (@Sendable (HTTPRequest) -> HTTPResponse)?
        var seen: [Seen] = []
        var holds: [FetchHold] = []
    }

    private let state = Locked(State())

    /// Serves `json` to every targeting key without a document of its own.
    func serve(_ json: String) { state.withLock { $0.everyone = Data(json.utf8) } }

    /// Serves `bytes` to every targeting key without a document of its own.
    func serve(bytes: Data) { state.withLock { $0.everyone = bytes } }

    /// Serves `json` to the targeting key `key`.
    func serve(_ json: String, to key: String) { state.withLock { $0.documents[key] = Data(json.utf8) } }

    /// Answers every request with `answer` from now on (nil: the documents again).
    func answer(with answer: (@Sendable (HTTPRequest) -> HTTPResponse)?) { state.withLock { $0.answer = answer } }

    /// Holds the next request until released.
    func holdNext() -> FetchHold {
        let hold = FetchHold()
        state.withLock { $0.holds.append(hold) }
        return hold
    }

    /// Every request so far.
    var seen: [Seen] { state.withLock { $0.seen } }

    /// The ETag the server gives `bytes`.
    static func etag(_ bytes: Data) -> String { "\"\(ContentHash(of: bytes).value)\"" }

    /// Answers one request.
    func respond(to request: HTTPRequest) async -> HTTPResponse {
        let body = await (try? request.bodyData) ?? Data()
        let context = try? JSONParser().parse(body)
        var headers: [String: String] = [:]
        for (name, value) in request.headers { headers[name.rawValue.lowercased()] = value }
        var query: [String: String] = [:]
        for item in request.query { query[item.name] = item.value }
        let seen = Seen(path: request.path, method: request.method.rawValue, headers: headers, query: query, body: context)
        let (hold, answer) = state.withLock { s -> (FetchHold?, (@Sendable (HTTPRequest) -> HTTPResponse)?) in
            s.seen.append(seen)
            return (s.holds.isEmpty ? nil : s.holds.removeFirst(), s.answer)
        }
        if let hold { await hold.suspendUntilReleased() }
        if let answer { return answer(request) }
        let key = context?["context"]?["targetingKey"]?.stringValue
        let bytes = state.withLock { s in key.flatMap { s.documents[$0] } ?? s.everyone }
        let etag = Self.etag(bytes)
        if headers["if-none-match"] == etag { return Reply.make(304, ["ETag": etag]) }
        return Reply.make(200, ["Content-Type": "application/json", "ETag": etag], body: bytes)
    }
}

/// A fetcher for `server`'s root, with the test's changes to its configuration.
func fetcher(
    for server: TestHTTPServer, _ change: (inout OFREPFetcher.Configuration) -> Void = { _ in }
) throws -> OFREPFetcher {
    var configuration = OFREPFetcher.Configuration(endpoint: server.url("/"), timeout: loopbackDeadline)
    change(&configuration)
    return try OFREPFetcher(configuration: configuration)
}

/// A request for the context `key` (with a `plan` attribute), holding `etag`.
func request(for key: String?, etag: String? = nil) -> FetchRequest {
    FetchRequest(validators: Validators(etag: etag), context: EvaluationContext(targetingKey: key, attributes: ["plan": "pro"]))
}

/// The error `fetcher` throws for `request`, or nil when it answers.
func fetchError(_ fetcher: OFREPFetcher, _ request: FetchRequest) async -> FetchError? {
    do throws(FetchError) {
        _ = try await fetcher.fetch(request)
        return nil
    } catch {
        return error
    }
}
