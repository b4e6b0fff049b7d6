import ConfigDomain
import Foundation
import Testing

@Suite("Every error and event says what happened (and what to do)")
struct ErrorDescriptionTests {
    @Test(
        "each parse reason in words",
        arguments: [
            (JSONParseError.Reason.emptyInput, "the input is empty"),
            (.unexpectedEnd, "the input ends in the middle of a value"),
            (.unexpectedByte(UInt8(ascii: "x")), "unexpected character 'x'"),
            (.unexpectedByte(0xEF), "unexpected byte 0xEF"),
            (.unexpectedByte(0x0B), "unexpected byte 0xB"),
            (.invalidUTF8, "the bytes are not valid UTF-8"),
            (.controlCharacterInString, "a control character must be escaped inside a string"),
            (.invalidEscape, "invalid escape sequence in a string"),
            (.invalidUnicodeEscape, "invalid \\u escape or unpaired surrogate"),
            (.invalidNumber, "malformed number"),
            (.numberOutOfRange("1e400"), "the number 1e400 does not fit in a 64-bit integer or a finite double"),
            (.duplicateKey("a"), #"duplicate key "a" in an object"#),
            (.tooDeep(limit: 64), "arrays and objects nest deeper than the limit of 64"),
            (.trailingData, "unexpected data after the end of the JSON value"),
        ] as [(JSONParseError.Reason, String)])
    func parseReasons(_ reason: JSONParseError.Reason, text: String) {
        #expect(reason.description == text)
        #expect(JSONParseError(offset: 12, reason: reason).description == "invalid JSON at byte 12: \(text)")
    }

    @Test("payload errors name the format, and the path and offset when known")
    func payloadErrors() {
        #expect(PayloadError(format: "json", reason: "bad").description == "invalid json payload: bad")
        #expect(PayloadError(format: "json", reason: "bad", offset: 3).description == "invalid json payload at byte 3: bad")
        #expect(
            PayloadError(format: "json", reason: "bad", offset: 3).from("https://example.com/c.json").description
                == "invalid json payload from https://example.com/c.json at byte 3: bad")
        #expect(
            PayloadError(format: "firebase", reason: "bad type", path: "parameters.x").description
                == "invalid firebase payload at parameters.x: bad type")
        let wrapped = PayloadError(format: "json", parse: JSONParseError(offset: 4, reason: .trailingData))
        #expect(wrapped == PayloadError(format: "json", reason: "unexpected data after the end of the JSON value", offset: 4))
    }

    @Test("conversion and decoding failures say what was found and why")
    func conversionAndDecoding() {
        #expect(
            ConversionError(expected: "Int", value: .string("x")).description
                == #"cannot read "x" as Int: expected Int, found a JSON string"#)
        #expect(
            DecodingFailure(path: "items[2].price", reason: "expected Double").description == "at items[2].price: expected Double"
        )
        #expect(DecodingFailure(path: "", reason: "expected an object").description == "expected an object")
    }

    @Test("configuration errors name their kind")
    func configurationErrors() {
        #expect(
            ConfigurationError(.invalidRule, "'[a-' is not a valid regular expression").description
                == "configuration error (invalidRule): '[a-' is not a valid regular expression")
    }

    @Test("fetch errors carry the retry advice")
    func fetchErrors() {
        let date = Date(timeIntervalSince1970: 0)
        #expect(
            FetchError(.transport, retry: .backoff, message: "connection refused").description
                == "fetch failed: connection refused (retry with backoff)")
        #expect(
            FetchError(.httpStatus(404), retry: .doNotRetry, message: "404").description == "fetch failed: 404 (do not retry)")
        #expect(FetchError(.rateLimited(status: 429), retry: .after(date), message: "slow down").isRetryable)
        #expect(RetryAdvice.after(date).description == "retry after \(date)")
        #expect(!FetchError.cancelled.isRetryable)
        #expect(FetchError.cancelled.description == "fetch failed: the fetch was cancelled (do not retry)")
    }

    @Test("cache errors say cache error")
    func cacheErrors() {
        #expect(
            CacheError(.corrupt(.badChecksum), message: "checksum mismatch; the snapshot was ignored").description
                == "cache error: checksum mismatch; the snapshot was ignored")
    }

    @Test("ConfigError forwards the underlying message and tells whether a retry may help")
    func configError() {
        let fetch = FetchError(.timeout, retry: .backoff, message: "timed out")
        let rejection = Rejection(key: "k", value: "1", rule: "r", reason: "why")
        #expect(ConfigError.fetch(fetch).description == fetch.description)
        #expect(ConfigError.fetch(fetch).isRetryable)
        #expect(!ConfigError.fetch(.cancelled).isRetryable)
        #expect(ConfigError.payload(PayloadError(format: "json", reason: "r")).description == "invalid json payload: r")
        #expect(!ConfigError.payload(PayloadError(format: "json", reason: "r")).isRetryable)
        #expect(ConfigError.cache(CacheError(.notFound, message: "m")).isRetryable)
        #expect(ConfigError.configuration(ConfigurationError(.missingComponent, "no fetcher")).description.contains("no fetcher"))
        #expect(ConfigError.rejected(rejection).description == rejection.description)
        #expect(ConfigError.stopped.description == "the client was stopped; build a new one to refresh again")
        #expect(!ConfigError.stopped.isRetryable)
    }

    @Test(
        "events describe themselves in one line",
        arguments: [
            (ConfigEvent.cacheMiss(name: "main"), "cache miss for main"),
            (.refreshStarted, "refresh started"),
            (.fetched(.modified, duration: 0.0124), "fetched in 12 ms: modified"),
            (.fetched(.notModified, duration: 0), "fetched in 0 ms: not modified"),
            (
                .fetched(.failed(FetchError(.timeout, retry: .backoff, message: "timed out")), duration: 30),
                "fetch failed after 30000 ms: timed out (retry with backoff)"
            ),
            (.fetched(.modified, duration: .infinity), "fetched in inf ms: modified"),
            (.notModified, "not modified; freshness renewed"),
            (.refreshSkipped(reason: "minimum interval", nextAllowed: nil), "refresh skipped: minimum interval"),
            (.pendingStored(changedKeys: ["a"]), "fetched snapshot pending activation; 1 keys would change"),
            (
                .activated(ConfigUpdate(changedKeys: [], cause: .context, generation: 2)),
                "activated by context (generation 2): changed nothing"
            ),
            (
                .activated(ConfigUpdate(changedKeys: ["a", "b"], cause: .override(source: "env"), generation: 3)),
                "activated by override env (generation 3): changed a, b"
            ),
            (.overrideProblem(source: ".env", message: "line 3 has no ="), "override source .env: line 3 has no ="),
            (
                .mistypedKey(requested: "newCheckout", registered: "new_checkout"),
                #"read of "newCheckout" looks like a typo of the registered key "new_checkout""#
            ),
            (.unregisteredKeyRead(name: "x"), #"read of unregistered key "x""#),
            (
                .valueRejected(Rejection(key: "k", value: "1", rule: "r", reason: "why")),
                #"rejected key "k": value 1 rejected by r: why"#
            ),
        ] as [(ConfigEvent, String)])
    func events(_ event: ConfigEvent, text: String) {
        #expect(event.description == text)
    }

    @Test("a key definition mismatch shows both definitions: default, rules, and secrecy and summary where they differ")
    func keyDefinitionMismatch() {
        let registered = KeyDescriptor(
            name: "max_retries", typeName: "Int", defaultValue: 3, ruleNames: ["range(0...10)", "atLeast(1)"])
        let read = KeyDescriptor(name: "max_retries", typeName: "Int", defaultValue: 7, summary: "Retries")
        let event = ConfigEvent.keyDefinitionMismatch(name: "max_retries", registered: registered, read: read)
        #expect(
            event.description
                == #"the key "max_retries" read here (default 7; no rules; summary "Retries") differs from the registered one "#
                + "(default 3; rules range(0...10), atLeast(1); no summary); it is read with its own default and rules: "
                + "declare it once and reuse that key")
        var secret = read
        secret.isSecret = true
        let redacted = ConfigEvent.keyDefinitionMismatch(name: "max_retries", registered: registered, read: secret).description
        #expect(redacted.contains("(default <redacted>; no rules; secret; summary \"Retries\")"))
        #expect(redacted.contains("(default <redacted>; rules range(0...10), atLeast(1); not secret; no summary)"))
    }

    @Test("signature errors and the config error around them say what happened and what to do")
    func signatureErrors() {
        let error = SignatureError(.replayed(version: 1, lastAccepted: 2), "signed with version 1; sign with a version above 2")
        #expect(error.description == "signature refused: signed with version 1; sign with a version above 2")
        #expect(ConfigError.signature(error).description == error.description)
        #expect(!ConfigError.signature(error).isRetryable, "fetching the same bytes again cannot help")
    }
}
