import Foundation
import Logging
import Testing

@testable import LoggingAdapter

/// The redactor behind ``LoggingObserver``, on every kind of metadata value.
@Suite("LogRedactor")
struct LogRedactorTests {
    struct Shown: CustomStringConvertible, Sendable {
        var description: String { "token=abcdefgh12345678" }
    }

    @Test("every kind of metadata value loses its secrets; the longest secret goes first")
    func everyMetadataKind() {
        let redactor = LogRedactor(secrets: ["Bearer abcdefgh12345678", "short"])
        #expect(redactor.redact("Authorization: Bearer abcdefgh12345678") == "Authorization: <redacted>")
        #expect(redactor.redact("a short one") == "a <redacted> one")
        #expect(redactor.redact(Logger.MetadataValue.stringConvertible(Shown())) == "token=<redacted>")
        #expect(redactor.redact(Logger.MetadataValue.array(["x abcdefgh12345678"])) == ["x <redacted>"])
        #expect(redactor.redact(Logger.MetadataValue.dictionary(["k": "abcdefgh12345678"])) == ["k": "<redacted>"])
    }

    @Test("no secrets: text passes unchanged")
    func noSecrets() {
        #expect(LogRedactor(secrets: []).redact("Bearer abcdefgh12345678") == "Bearer abcdefgh12345678")
        #expect(LogRedactor(secrets: [" ", "\n"]).redact("a b") == "a b")
    }
}
