import ConfigDomain
import ConfigPorts
import Foundation
import HTTPSupport

/// Turns an OFREP server's answer into a ``ConfigPorts/FetchResult`` or a typed
/// ``ConfigDomain/FetchError`` that says whether and when to retry. Pure: no I/O. The transport
/// (HTTPSupport's) has already enforced the body limit, the content type and the redirect policy.
struct Interpreter {
    /// The endpoint as messages show it.
    var display: String
    /// The time `Retry-After: <seconds>` counts from.
    var now: Date

    /// How errors name the server and what they advise, in OFREP's settings.
    var wording: ErrorWording {
        var wording = ErrorWording(server: "the OFREP server", url: display)
        wording.credentialsAdvice =
            "the server did not accept the credentials; check the Authorization or API key header (OFREP_HEADERS, or "
            + "the configuration's headers). Not retried until the client is rebuilt with other credentials"
        wording.notFoundAdvice =
            "check the endpoint: it is the server's base URL, without /ofrep/v1/evaluate/flags, which the fetcher adds"
        wording.contentTypeAdvice = "is the endpoint the OFREP server's base URL?"
        wording.bodyLimitAdvice = "raise maxBodySize or serve fewer flags"
        wording.timeoutAdvice = "OFREP_TIMEOUT_MS, or the configuration's timeout, sets the limit"
        return wording
    }

    /// The result of a bulk evaluation request sent with `request`'s validators.
    func result(for response: HTTPTransportResponse, request: FetchRequest) throws(FetchError) -> FetchResult {
        switch response.status {
        case 304:
            return .notModified(response.validators(fallingBackTo: request.validators))
        case 200:
            guard !response.body.isEmpty else {
                throw FetchError(
                    .emptyBody, retry: .backoff,
                    message: "the OFREP server at \(display) answered 200 with an empty body; a bulk evaluation was expected")
            }
            return .modified(
                FetchedPayload(
                    bytes: response.body, validators: response.validators, contentType: response.contentType,
                    source: display))
        default:
            throw error(for: response)
        }
    }

    /// The error for an answer that is not 200 or 304: OFREP's own for a 400, HTTPSupport's for the others, with the
    /// server's `errorDetails` after a 5xx.
    func error(for response: HTTPTransportResponse) -> FetchError {
        let status = response.status
        guard status == 400 else {
            let details = status >= 500 ? Self.failure(in: response.body).details.map { " (\(Self.short($0)))" } ?? "" : ""
            return FetchError.forStatus(of: response, wording: wording, now: now, details: details)
        }
        let failure = Self.failure(in: response.body)
        let code = failure.code ?? "no error code"
        let advice =
            switch failure.code {
            case "TARGETING_KEY_MISSING":
                "the evaluation context has no targeting key, which the server requires; set one (updateContext or "
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
            message: "\(wording.subject) answered HTTP 400 (\(code)\(failure.details.map { ": \(Self.short($0))" } ?? "")); "
                + advice)
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
