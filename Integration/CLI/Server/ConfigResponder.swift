import FlyingFox
import Foundation
import HTTPAdapter

/// Answers one request of a dev config server: reload check, simulated trouble, conditional GET.
struct ConfigResponder: Sendable {
    /// The documents.
    let library: DocumentLibrary
    /// What to simulate.
    let trouble: TroubleSettings
    /// The fault sequence for ``TroubleSettings/failRate``.
    let sequence: FaultSequence
    /// Called with what a reload check found.
    let onChange: @Sendable ([DocumentLibrary.Change]) -> Void
    /// Called once per answered request.
    let onRequest: @Sendable (RequestRecord) -> Void
    /// Signs what is served (`serve --sign-with`): the `X-Config-Signature` header of each `200`, and
    /// `<path>.sig` next to each document.
    var signer: DocumentSigner? = nil

    /// The response to `request`, after logging it.
    func respond(to request: HTTPRequest) async -> HTTPResponse {
        let start = Date()
        let changes = library.refresh()
        if !changes.isEmpty { onChange(changes) }
        let ifNoneMatch = request.headers[HTTPHeader("If-None-Match")]
        let ifModifiedSince = request.headers[HTTPHeader("If-Modified-Since")]
        var record = RequestRecord(
            date: start, method: request.method.rawValue, path: request.path, status: 0, ifNoneMatch: ifNoneMatch,
            ifModifiedSince: ifModifiedSince, etag: nil, lastModified: nil, bytes: 0, simulated: nil, delayed: 0)
        if trouble.delay > 0 {
            try? await Task.sleep(nanoseconds: UInt64(trouble.delay * 1_000_000_000))
            record.delayed = trouble.delay
        }
        let response = answer(request, record: &record)
        onRequest(record)
        return response
    }

    private func answer(_ request: HTTPRequest, record: inout RequestRecord) -> HTTPResponse {
        guard request.method == .GET || request.method == .HEAD else {
            return text(405, "only GET and HEAD are served\n", record: &record, extra: ["Allow": "GET, HEAD"])
        }
        var fault: TroubleSettings.Fault?
        if let configured = trouble.fault, trouble.failRate > 0 {
            if trouble.failRate >= 1 || sequence.next() < trouble.failRate { fault = configured }
        }
        if case .status(let code, let retryAfter)? = fault {
            record.simulated = "status \(code)"
            var extra: [String: String] = [:]
            if let retryAfter { extra["Retry-After"] = String(retryAfter) }
            return text(code, "simulated \(code) (remote-config serve --status)\n", record: &record, extra: extra)
        }
        if let signer, request.path.hasSuffix(".sig"),
            case .document(let signed) = library.lookup(String(request.path.dropLast(4)))
        {
            return signatureFile(of: signed, by: signer, record: &record)
        }
        let document: DocumentLibrary.Document
        switch library.lookup(request.path) {
        case .notFound(let available):
            let list = available.isEmpty ? "nothing yet" : available.joined(separator: ", ")
            return text(404, "no document at \(request.path); this server has: \(list)\n", record: &record)
        case .refused(let reason):
            return text(503, "the file for \(request.path) is not served: \(reason)\n", record: &record)
        case .document(let found):
            document = found
        }
        let lastModified = document.lastModifiedText
        record.etag = document.etag
        record.lastModified = lastModified
        var headers = HTTPHeaders()
        headers[HTTPHeader("ETag")] = document.etag
        headers[HTTPHeader("Last-Modified")] = lastModified
        headers[HTTPHeader("Cache-Control")] = "no-cache"
        if EntityTagMatching.isNotModified(
            ifNoneMatch: record.ifNoneMatch, ifModifiedSince: record.ifModifiedSince, etag: document.etag,
            lastModified: document.lastModified)
        {
            record.status = 304
            return HTTPResponse(statusCode: HTTPStatusCode(304, phrase: "Not Modified"), headers: headers)
        }
        headers[.contentType] = "application/json"
        if let signer {
            switch signer.signature(for: document) {
            case .success(let text): headers[HTTPHeader(HTTPFetcher.SignatureTransport.headerName)] = text
            case .failure(let error): return text(500, "\(error)\n", record: &record)
            }
        }
        record.status = 200
        if request.method == .HEAD {
            headers[.contentLength] = String(document.body.count)
            return HTTPResponse(statusCode: .ok, headers: headers)
        }
        if fault == .truncate {
            let sent = document.body.prefix(document.body.count / 2)
            record.bytes = sent.count
            record.simulated = "truncated body, \(sent.count) of \(document.body.count) bytes sent"
            let body = HTTPBodySequence(
                from: TruncatedBody(sent: Data(sent)), count: document.body.count, suggestedBufferSize: 16_384)
            return HTTPResponse(statusCode: .ok, headers: headers, body: body)
        }
        record.bytes = document.body.count
        return HTTPResponse(statusCode: .ok, headers: headers, body: document.body)
    }

    /// `<document>.sig`: the document's signature line, as a sidecar file.
    private func signatureFile(of document: DocumentLibrary.Document, by signer: DocumentSigner, record: inout RequestRecord)
        -> HTTPResponse
    {
        switch signer.signature(for: document) {
        case .success(let signature): return text(200, signature + "\n", record: &record)
        case .failure(let error): return text(500, "\(error)\n", record: &record)
        }
    }

    private func text(_ status: Int, _ message: String, record: inout RequestRecord, extra: [String: String] = [:])
        -> HTTPResponse
    {
        var headers = HTTPHeaders()
        headers[.contentType] = "text/plain; charset=utf-8"
        for (name, value) in extra { headers[HTTPHeader(name)] = value }
        let body = Data(message.utf8)
        record.status = status
        record.bytes = body.count
        return HTTPResponse(
            statusCode: HTTPStatusCode(status, phrase: RequestRecord.reason(for: status)), headers: headers, body: body)
    }
}
