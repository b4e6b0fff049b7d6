import ConfigDomain
import ConfigPorts
import FlyingFox
import Foundation

/// `serve`'s OFREP endpoint (OpenFeature Remote Evaluation Protocol): the served file's flags,
/// evaluated for the context each request posts.
///
/// Paths, for the file served at `/` (a single file) or for `/<name>.json` (a folder), which is then
/// the OFREP base URL:
/// - `POST [/<name>.json]/ofrep/v1/evaluate/flags` — every flag: `{"flags": [...], "eventStreams": [...]}`,
///   with a strong ETag per answer (a hash of its bytes, so one per context and file version) and
///   `304` when `If-None-Match` matches;
/// - `POST [/<name>.json]/ofrep/v1/evaluate/flags/<key>` — one flag: `200`, `404 FLAG_NOT_FOUND`, or
///   `400` with the flag's error;
/// - `GET [/<name>.json]/ofrep/v1/events` — server-sent events: `{"type":"refetchEvaluation", …}`
///   each time the file changes (the bulk answer names this stream in `eventStreams`).
///
/// The file is evaluated in its format (`--format`, or the one its shape shows): the library's targeting
/// dialect, GrowthBook, Unleash, flagd, LaunchDarkly, ConfigCat, a Firebase template, an OFREP bulk answer,
/// or plain JSON, whose members are `STATIC` flags. `--delay` and `--status` apply here too.
struct OFREPResponder: Sendable {
    /// What an OFREP path asks for.
    enum Route: Sendable, Hashable {
        /// Bulk evaluation of the document at `document`.
        case bulk(document: String)
        /// One flag of the document at `document`.
        case single(document: String, key: String)
        /// The change notifications of the document at `document`.
        case events(document: String)

        /// The route of `path`, or nil when it is not an OFREP path.
        init?(path: String) {
            guard let marker = path.range(of: "/ofrep/v1/") else { return nil }
            let document = String(path[..<marker.lowerBound])
            let rest = path[marker.upperBound...]
            let documentPath = document.isEmpty ? "/" : document
            if rest == "evaluate/flags" || rest == "evaluate/flags/" {
                self = .bulk(document: documentPath)
            } else if rest.hasPrefix("evaluate/flags/") {
                let encoded = String(rest.dropFirst("evaluate/flags/".count))
                self = .single(document: documentPath, key: encoded.removingPercentEncoding ?? encoded)
            } else if rest == "events" {
                self = .events(document: documentPath)
            } else {
                return nil
            }
        }
    }

    /// The documents.
    let library: DocumentLibrary
    /// What to simulate (`--delay`, `--status`).
    let trouble: TroubleSettings
    /// The fault sequence for `--fail-rate`.
    let sequence: FaultSequence
    /// The change notifications.
    let events: OFREPEventHub
    /// Called once per answered request.
    let onRequest: @Sendable (RequestRecord) -> Void

    /// The response to `request` on `route`, after logging it.
    func respond(to request: HTTPRequest, route: Route) async -> HTTPResponse {
        if case .events(let document) = route {
            let (response, record) = events.respond(to: request, document: document)
            onRequest(record)
            return response
        }
        var record = RequestRecord(
            date: Date(), method: request.method.rawValue, path: request.path, status: 0,
            ifNoneMatch: request.headers[HTTPHeader("If-None-Match")], ifModifiedSince: nil, etag: nil, lastModified: nil,
            bytes: 0, simulated: nil, delayed: 0)
        if trouble.delay > 0 {
            try? await Task.sleep(nanoseconds: UInt64(trouble.delay * 1_000_000_000))
            record.delayed = trouble.delay
        }
        let body = await (try? request.bodyData) ?? Data()
        let response = answer(request, body: body, route: route, record: &record)
        onRequest(record)
        return response
    }

    private func answer(_ request: HTTPRequest, body: Data, route: Route, record: inout RequestRecord) -> HTTPResponse {
        guard request.method == .POST else {
            return json(405, ["errorDetails": "OFREP evaluations are POST requests"], record: &record, extra: ["Allow": "POST"])
        }
        if let configured = trouble.fault, trouble.failRate > 0, trouble.failRate >= 1 || sequence.next() < trouble.failRate,
            case .status(let code, let retryAfter) = configured
        {
            record.simulated = "status \(code)"
            var extra: [String: String] = [:]
            if let retryAfter { extra["Retry-After"] = String(retryAfter) }
            return json(
                code, ["errorDetails": .string("simulated \(code) (remote-config serve --status)")], record: &record, extra: extra
            )
        }
        let context: EvaluationContext
        switch Self.context(from: body) {
        case .success(let parsed): context = parsed
        case .failure(let failure):
            return json(400, ["errorCode": .string(failure.code), "errorDetails": .string(failure.details)], record: &record)
        }
        let documentPath: String
        switch route {
        case .bulk(let document), .single(let document, _), .events(let document): documentPath = document
        }
        let document: DocumentLibrary.Document
        switch library.lookup(documentPath) {
        case .notFound(let available):
            let list =
                available.isEmpty ? "nothing yet" : available.map { $0 + "/ofrep/v1/evaluate/flags" }.joined(separator: ", ")
            return json(
                404, ["errorDetails": .string("no document at \(documentPath); OFREP base URLs of this server: \(list)")],
                record: &record)
        case .refused(let reason):
            return json(500, ["errorDetails": .string("the file for \(documentPath) is not served: \(reason)")], record: &record)
        case .document(let found):
            document = found
        }
        let payload = document.payload
        switch route {
        case .single(_, let key):
            let evaluation = payload.evaluate(key, in: context)
            if evaluation.errorCode == .flagNotFound {
                return json(404, Self.flag(evaluation), record: &record)
            }
            return json(evaluation.reason == .error ? 400 : 200, Self.flag(evaluation), record: &record)
        case .bulk(let documentPath):
            let flags = payload.keys.map { Self.flag(payload.evaluate($0, in: context)) }
            let streamPath = (documentPath == "/" ? "" : documentPath) + "/ofrep/v1/events"
            let answer = ConfigValue.object([
                "flags": .array(flags),
                "eventStreams": .array([.object(["type": "sse", "endpoint": .object(["requestUri": .string(streamPath)])])]),
            ])
            let bytes = answer.jsonData()
            let etag = DocumentLibrary.entityTag(for: bytes)
            record.etag = etag
            if let ifNoneMatch = record.ifNoneMatch, EntityTagMatching.ifNoneMatch(ifNoneMatch, matches: etag) {
                record.status = 304
                var headers = HTTPHeaders()
                headers[HTTPHeader("ETag")] = etag
                return HTTPResponse(statusCode: HTTPStatusCode(304, phrase: "Not Modified"), headers: headers)
            }
            return json(200, answer, record: &record, extra: ["ETag": etag, "Cache-Control": "no-cache"], bytes: bytes)
        case .events:
            return json(405, ["errorDetails": "open the event stream with GET"], record: &record)
        }
    }

    /// An OFREP error code and details, for a request whose context cannot be used.
    struct ContextFailure: Error {
        var code: String
        var details: String
    }

    /// The evaluation context a request's body posts: `{"context": {"targetingKey": …, …}}`.
    static func context(from body: Data) -> Result<EvaluationContext, ContextFailure> {
        guard let document = try? JSONParser().parse(body) else {
            return .failure(ContextFailure(code: "PARSE_ERROR", details: "the request body is not JSON; send {\"context\": {…}}"))
        }
        guard case .object(let members) = document else {
            return .failure(
                ContextFailure(code: "PARSE_ERROR", details: "the request body must be a JSON object: {\"context\": {…}}"))
        }
        guard let context = members["context"] else { return .success(.empty) }
        guard case .object(var attributes) = context else {
            return .failure(ContextFailure(code: "INVALID_CONTEXT", details: "\"context\" must be a JSON object"))
        }
        var targetingKey: String?
        if let key = attributes.removeValue(forKey: EvaluationContext.targetingKeyAttribute) {
            guard case .string(let text) = key else {
                return .failure(ContextFailure(code: "INVALID_CONTEXT", details: "\"targetingKey\" must be a string"))
            }
            targetingKey = text
        }
        return .success(EvaluationContext(targetingKey: targetingKey, attributes: attributes))
    }

    /// One flag as OFREP writes it: a success (a value, or none for the app's default) or a failure.
    static func flag(_ evaluation: EvaluationDetails<ConfigValue?>) -> ConfigValue {
        var members: [String: ConfigValue] = ["key": .string(evaluation.key)]
        if let code = evaluation.errorCode ?? (evaluation.reason == .error ? .general : nil) {
            members["errorCode"] = .string(code.rawValue)
            let details =
                code == .flagNotFound
                ? "the flag \"\(evaluation.key)\" is not in the served file"
                : evaluation.errorMessage ?? evaluation.rejected.map(\.reason).joined(separator: "; ")
            members["errorDetails"] = .string(details)
            return .object(members)
        }
        members["reason"] = .string(evaluation.reason.rawValue)
        if let value = evaluation.value { members["value"] = value }
        if let variant = evaluation.variant { members["variant"] = .string(variant) }
        if !evaluation.flagMetadata.isEmpty { members["metadata"] = .object(evaluation.flagMetadata) }
        return .object(members)
    }

    private func json(
        _ status: Int, _ body: ConfigValue, record: inout RequestRecord, extra: [String: String] = [:], bytes: Data? = nil
    ) -> HTTPResponse {
        var headers = HTTPHeaders()
        headers[.contentType] = "application/json"
        for (name, value) in extra { headers[HTTPHeader(name)] = value }
        let data = bytes ?? body.jsonData()
        record.status = status
        record.bytes = data.count
        return HTTPResponse(
            statusCode: HTTPStatusCode(status, phrase: RequestRecord.reason(for: status)), headers: headers, body: data)
    }
}

/// The OFREP event streams of a dev server: one `refetchEvaluation` event per new version of a
/// document, to each stream that follows it, and a heartbeat comment now and then.
final class OFREPEventHub: Sendable {
    private struct Subscriber {
        let path: String
        let continuation: AsyncStream<Data>.Continuation
    }

    private struct State {
        var subscribers: [UInt64: Subscriber] = [:]
        var nextID: UInt64 = 0
        var eventID = 0
    }

    /// The documents announced.
    let library: DocumentLibrary
    private let state = Locked(State())

    init(library: DocumentLibrary) { self.library = library }

    /// How many streams are open.
    var subscriberCount: Int { state.withLock { $0.subscribers.count } }

    /// Announces each document a reload changed (not one loaded for the first time: nobody follows it yet).
    func publish(_ changes: [DocumentLibrary.Change]) {
        for case .reloaded(let document) in changes {
            let (open, id) = state.withLock { s -> ([AsyncStream<Data>.Continuation], Int) in
                s.eventID += 1
                return (s.subscribers.values.filter { $0.path == document.path }.map(\.continuation), s.eventID)
            }
            let data = ConfigValue.object([
                "type": "refetchEvaluation", "etag": .string(document.etag),
                "lastModified": .int(Int64(document.lastModified.timeIntervalSince1970)),
            ]).jsonText()
            let event = Data("id: \(id)\nevent: message\ndata: \(data)\n\n".utf8)
            for continuation in open { continuation.yield(event) }
        }
    }

    /// Sends a heartbeat comment to every open stream.
    func sendHeartbeat() {
        let open = state.withLock { $0.subscribers.values.map(\.continuation) }
        for continuation in open { continuation.yield(Data(": heartbeat\n\n".utf8)) }
    }

    /// Ends every stream (the server is stopping).
    func finishAll() {
        let open = state.withLock { s in
            defer { s.subscribers = [:] }
            return s.subscribers.values.map(\.continuation)
        }
        for continuation in open { continuation.finish() }
    }

    /// The response to `GET …/ofrep/v1/events` for `document`, and the record for the log.
    func respond(to request: HTTPRequest, document documentPath: String) -> (HTTPResponse, RequestRecord) {
        var record = RequestRecord(
            date: Date(), method: request.method.rawValue, path: request.path, status: 200, ifNoneMatch: nil,
            ifModifiedSince: nil, etag: nil, lastModified: nil, bytes: 0, simulated: nil, delayed: 0)
        func text(_ status: Int, _ message: String) -> (HTTPResponse, RequestRecord) {
            record.status = status
            var headers = HTTPHeaders()
            headers[.contentType] = "text/plain; charset=utf-8"
            let response = HTTPResponse(
                statusCode: HTTPStatusCode(status, phrase: RequestRecord.reason(for: status)), headers: headers,
                body: Data(message.utf8))
            return (response, record)
        }
        guard request.method == .GET else { return text(405, "only GET opens an event stream\n") }
        guard case .document(let document) = library.lookup(documentPath) else {
            return text(404, "no document to follow at \(documentPath)\n")
        }
        let (stream, continuation) = AsyncStream<Data>.makeStream()
        let id = state.withLock { s -> UInt64 in
            s.nextID += 1
            s.subscribers[s.nextID] = Subscriber(path: document.path, continuation: continuation)
            return s.nextID
        }
        continuation.onTermination = { [state] _ in _ = state.withLock { $0.subscribers.removeValue(forKey: id) } }
        continuation.yield(Data("retry: 1000\n: following \(document.path)\n\n".utf8))
        var headers = HTTPHeaders()
        headers[.contentType] = "text/event-stream"
        headers[HTTPHeader("Cache-Control")] = "no-cache"
        return (
            HTTPResponse(statusCode: .ok, headers: headers, body: HTTPBodySequence(from: EventStreamBody(stream: stream))), record
        )
    }
}
