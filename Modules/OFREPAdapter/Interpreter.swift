import ConfigDomain
import ConfigPorts
import Foundation
import HTTPSupport

/// Turns an OFREP server's answer into a ``ConfigPorts/FetchResult`` or a typed
/// ``ConfigDomain/FetchError`` that says whether and when to retry. Pure: no I/O.
struct Interpreter {
    /// The endpoint as messages show it.
    var display: String
    /// The fetcher's settings.
    var configuration: OFREPFetcher.Configuration
    /// The time `Retry-After: <seconds>` counts from.
    var now: Date

    /// The result of a bulk evaluation request sent with `request`'s validators.
    func result(for answer: Answer, request: FetchRequest) throws(FetchError) -> FetchResult {
        switch answer.status {
        case 304:
            return .notModified(
                Validators(
                    etag: answer.etag ?? request.validators.etag,
                    lastModified: answer.lastModified ?? request.validators.lastModified))
        case 200:
            return .modified(try payload(answer))
        default:
            throw error(for: answer)
        }
    }

    private func payload(_ answer: Answer) throws(FetchError) -> FetchedPayload {
        guard !answer.body.isEmpty else {
            throw FetchError(
                .emptyBody, retry: .backoff,
                message: "the OFREP server at \(display) answered 200 with an empty body; a bulk evaluation was expected")
        }
        guard answer.body.count <= configuration.maxBodySize else {
            throw FetchError(
                .bodyTooLarge(limit: configuration.maxBodySize), retry: .doNotRetry,
                message: "the bulk evaluation from \(display) is \(answer.body.count) bytes, over the limit of "
                    + "\(configuration.maxBodySize) bytes; raise maxBodySize or serve fewer flags")
        }
        if let type = answer.contentType,
            let media = type.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased(),
            !media.isEmpty, media != "application/json", !(media.hasPrefix("application/") && media.hasSuffix("+json"))
        {
            throw FetchError(
                .unsupportedContentType(type), retry: .backoff,
                message: "the OFREP server at \(display) answered 200 with content type \"\(OFREPHeaders.printable(type))\", "
                    + "not application/json; is the endpoint the OFREP server's base URL? (a captive portal's page looks like this)"
            )
        }
        return FetchedPayload(
            bytes: answer.body, validators: Validators(etag: answer.etag, lastModified: answer.lastModified),
            contentType: answer.contentType, source: display)
    }

    /// The error for an answer that is not 200 or 304.
    func error(for answer: Answer) -> FetchError {
        let status = answer.status
        let answered = "the OFREP server at \(display) answered HTTP \(status)"
        let retryAt = RetryAfter.date(answer.retryAfter, now: now)
        let details = status >= 500 ? Self.failure(in: answer.body).details.map { " (\(Self.short($0)))" } ?? "" : ""
        if let transient = FetchError.transient(status: status, answered: answered, retryAt: retryAt, details: details) {
            return transient
        }
        switch status {
        case 400:
            let failure = Self.failure(in: answer.body)
            let code = failure.code ?? "no error code"
            let advice =
                switch failure.code {
                case "TARGETING_KEY_MISSING":
                    "the evaluation context has no targeting key, which the server requires; set one (setContext or "
                        + "the builder's context) and the client fetches again"
                case "INVALID_CONTEXT":
                    "the server refused the evaluation context; check its attributes (names and types), and the client "
                        + "fetches again when it changes"
                case "PARSE_ERROR":
                    "the server could not read the request or its flag definitions; check the server"
                default:
                    "retrying the same request will not help until the context or the server changes"
                }
            return FetchError(
                .httpStatus(400), retry: .doNotRetry,
                message: "\(answered) (\(code)\(failure.details.map { ": \(Self.short($0))" } ?? "")); \(advice)")
        case 401, 403:
            return FetchError(
                .httpStatus(status), retry: .doNotRetry,
                message: "\(answered) (\(status == 401 ? "unauthorized" : "forbidden")): the server did not accept the "
                    + "credentials; check the Authorization or API key header (OFREP_HEADERS, or the configuration's "
                    + "headers). Not retried until the client is rebuilt with other credentials")
        case 404:
            return FetchError(
                .httpStatus(404), retry: .doNotRetry,
                message: "\(answered) (not found); check the endpoint: it is the server's base URL, without "
                    + "/ofrep/v1/evaluate/flags, which the fetcher adds")
        default:
            return FetchError(
                .httpStatus(status), retry: .doNotRetry,
                message: "\(answered); retrying will not help until the server or the request changes")
        }
    }

    /// The error for a request that got no answer.
    func error(for problem: TransportProblem) -> FetchError {
        switch problem {
        case .cancelled:
            return .cancelled
        case .timedOut:
            return FetchError(
                .timeout, retry: .backoff,
                message: "no complete answer from the OFREP server at \(display) within \(configuration.timeout) s; the "
                    + "server or the network is slow (OFREP_TIMEOUT_MS sets the limit)")
        case .failed(let code, let description):
            if code == -999 { return .cancelled }
            if code == -1001 {
                return FetchError(
                    .timeout, retry: .backoff, message: "no answer from the OFREP server at \(display) in time: \(description)")
            }
            return FetchError(
                .transport, retry: .backoff,
                message: "could not reach the OFREP server at \(display): \(description) (NSURLErrorDomain \(code)); check "
                    + "the network, the host name and that the server is up")
        }
    }

    /// The `errorCode` and `errorDetails` of an OFREP failure body, when it is one.
    static func failure(in body: Data) -> (code: String?, details: String?) {
        guard let document = try? JSONParser().parse(body) else { return (nil, nil) }
        return (document["errorCode"]?.stringValue, document["errorDetails"]?.stringValue)
    }

    /// `text` cut to 200 characters of printable ASCII, for a message.
    static func short(_ text: String) -> String {
        let printable = OFREPHeaders.printable(text)
        return printable.count > 200 ? String(printable.prefix(200)) + "…" : printable
    }
}
