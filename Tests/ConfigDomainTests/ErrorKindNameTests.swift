import ConfigDomain
import Foundation
import Testing

@Suite("Error kind names and fetch outcomes")
struct ErrorKindNameTests {
    static let fetchKinds: [FetchError.Kind] = [
        .transport, .timeout, .httpStatus(404), .rateLimited(status: 429), .redirectLoop, .bodyTooLarge(limit: 1),
        .unsupportedContentType("text/html"), .truncatedBody(expected: 2, received: 1), .emptyBody, .invalidPayload,
        .insecureURL, .cancelled, .other,
    ]

    @Test("every fetch error kind has its own snake_case name, without its details")
    func fetchKindNames() {
        let names = Self.fetchKinds.map(\.name)
        #expect(Set(names).count == Self.fetchKinds.count)
        #expect(names.allSatisfy { $0.allSatisfy { $0.isLowercase || $0 == "_" } })
        #expect(FetchError.Kind.httpStatus(500).name == "http_status")
        #expect(FetchError.Kind.unsupportedContentType("secret/type").name == "unsupported_content_type")
    }

    @Test("a configuration error names what failed, a fetch error with its kind")
    func configErrorKindNames() {
        let rejection = Rejection(key: "k", value: "1", rule: "r", reason: "why")
        let errors: [(ConfigError, String)] = [
            (.fetch(FetchError(.timeout, retry: .backoff, message: "slow")), "fetch.timeout"),
            (.payload(PayloadError(format: "json", reason: "bad")), "payload"),
            (.signature(SignatureError(.missing, "no signature")), "signature"),
            (.cache(CacheError(.notFound, message: "gone")), "cache"),
            (.configuration(ConfigurationError(.missingComponent, "no fetcher")), "configuration"),
            (.rejected(rejection), "rejected"),
            (.decoding(key: "k", failure: DecodingFailure(path: "a", reason: "b")), "decoding"),
            (.stopped, "stopped"),
        ]
        for (error, name) in errors { #expect(error.kindName == name) }
    }

    @Test("a fetch outcome describes itself; a failure by its message")
    func outcomeDescriptions() {
        #expect(FetchOutcome.modified.description == "modified")
        #expect(FetchOutcome.notModified.description == "not modified")
        #expect(FetchOutcome.failed(FetchError(.transport, retry: .backoff, message: "refused")).description == "failed: refused")
    }
}
