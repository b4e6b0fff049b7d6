import ConfigDomain
import ConfigPorts
import Foundation
import HTTPSupport
import Testing

@testable import HTTPAdapter

@Suite("HTTPFetcher URL rules and settings validation")
struct HTTPFetcherURLPolicyTests {
    private func refusal(_ text: String, _ configuration: HTTPFetcher.Configuration = .init()) -> ConfigurationError? {
        guard let url = URL(string: text) else {
            Issue.record("bad test URL \(text)")
            return nil
        }
        do throws(ConfigurationError) {
            _ = try HTTPFetcher(url: url, configuration: configuration)
            return nil
        } catch {
            return error
        }
    }

    @Test(
        "https to any host and plain http to loopback hosts are allowed",
        arguments: [
            "https://cdn.example.com/config.json", "HTTPS://Example.COM/x", "http://localhost:8080/c.json", "http://LOCALHOST/c",
            "http://localhost./c", "http://127.0.0.1:9/c", "http://127.200.3.4/c", "http://[::1]:8080/c",
            "http://[0:0:0:0:0:0:0:1]/c",
        ])
    func allowedURLs(url: String) {
        #expect(refusal(url) == nil)
    }

    @Test(
        "plain http to a non-loopback host is refused with a message naming the opt-in",
        arguments: [
            "http://cdn.example.com/config.json", "http://10.0.0.1/c", "http://128.0.0.1/c", "http://127.0.0.1.example.com/c",
            "http://localhost.example.com/c", "http://[::2]/c", "http://[::ffff:127.0.0.1]/c", "http://0.0.0.0/c",
        ])
    func insecureURLsAreRefused(url: String) {
        let error = refusal(url)
        #expect(error?.kind == .invalidAdapterSetting)
        #expect(error?.message.contains("allowsInsecureHTTPForNonLoopbackHosts") == true)
    }

    @Test("the loudly named opt-in allows plain http to any host")
    func optInAllowsInsecureHTTP() {
        #expect(refusal("http://cdn.example.com/config.json", .init(allowsInsecureHTTPForNonLoopbackHosts: true)) == nil)
    }

    @Test(
        "schemes other than http and https, and URLs without a host, are refused even with the opt-in",
        arguments: [
            "ftp://example.com/c.json", "file:///etc/config.json", "ws://localhost/c", "data:,{}", "https:///nohost",
            "config.json",
        ])
    func otherSchemesAreRefused(url: String) {
        let error = refusal(url, .init(allowsInsecureHTTPForNonLoopbackHosts: true))
        #expect(error?.kind == .invalidAdapterSetting)
    }

    @Test("out-of-range settings are refused with a message naming the setting")
    func invalidSettings() {
        let cases: [(HTTPFetcher.Configuration, String)] = [
            (.init(timeout: 0), "timeout"), (.init(timeout: -1), "timeout"), (.init(timeout: .nan), "timeout"),
            (.init(timeout: .infinity), "timeout"), (.init(maxBodySize: 0), "maxBodySize"),
            (.init(acceptedContentTypes: []), "acceptedContentTypes"),
            (.init(acceptedContentTypes: ["json"]), "acceptedContentTypes"), (.init(maxRedirects: -1), "maxRedirects"),
            (.init(headers: ["Bad Name": "x"]), "Bad Name"), (.init(headers: ["": "x"]), "header"),
            // Tokens are ASCII: letters outside it are refused, in header names and in media types.
            (.init(headers: ["X-Clé": "x"]), "X-Cl?"), (.init(acceptedContentTypes: ["applicatión/json"]), "applicatión/json"),
            (.init(acceptedContentTypes: ["application/json; charset=utf-8"]), "acceptedContentTypes"),
            // A media type is `type/subtype`: one slash, with something on each side.
            (.init(acceptedContentTypes: ["/json"]), "\"/json\""),
            (.init(acceptedContentTypes: ["application/"]), "application/"),
            (.init(acceptedContentTypes: ["a/b/c"]), "a/b/c"), (.init(acceptedContentTypes: ["/"]), "\"/\""),
        ]
        for (configuration, setting) in cases {
            let error = refusal("https://example.com/c.json", configuration)
            #expect(error?.kind == .invalidAdapterSetting)
            #expect(error?.message.contains(setting) == true, "\(String(describing: error)) should name \(setting)")
        }
    }

    @Test("the token characters of RFC 9110 are accepted in a header name, and every media-type pattern form")
    func tokenCharactersAccepted() {
        let configuration = HTTPFetcher.Configuration(
            headers: ["X-A1!#$%&'*+-.^_`|~": "v"], acceptedContentTypes: ["application/vnd.api+json", "text/*", "*/*"])
        #expect(refusal("https://example.com/c.json", configuration)?.message == nil)
    }

    @Test("a header value with a line break is refused without quoting the value")
    func headerValueWithLineBreak() {
        let error = refusal("https://example.com/c.json", .init(headers: ["Authorization": "Bearer s3cr3t-v4lue\r\nX-Evil: 1"]))
        #expect(error?.kind == .invalidAdapterSetting)
        #expect(error?.message.contains("Authorization") == true)
        #expect(error?.message.contains("s3cr3t") == false)
    }

    @Test("secret header names are lowercased and include the fixed four")
    func secretHeaderNames() {
        var configuration = HTTPFetcher.Configuration()
        configuration.secretHeaderNames = ["X-Session", "Authorization", "x-session", "X-Api-Token"]
        let fixed: Set = ["authorization", "proxy-authorization", "cookie", "x-api-key"]
        #expect(configuration.allSecretHeaderNames == fixed.union(["x-api-token", "x-session"]))
        #expect(configuration.isSecret(headerName: "x-SESSION"))
        #expect(HTTPFetcher.Configuration().allSecretHeaderNames == fixed)
    }

    @Test("the defaults are the documented ones")
    func defaults() {
        let configuration = HTTPFetcher.Configuration()
        #expect(configuration.timeout == 15)
        #expect(configuration.maxBodySize == 2_097_152)
        #expect(configuration.acceptedContentTypes == ["application/json", "text/json", "application/*+json"])
        #expect(configuration.acceptsMissingContentType)
        #expect(configuration.allSecretHeaderNames == ["authorization", "proxy-authorization", "cookie", "x-api-key"])
        #expect(configuration.session == nil)
        #expect(!configuration.honorsCacheControlMaxAge)
        #expect(!configuration.allowsInsecureHTTPForNonLoopbackHosts)
        #expect(configuration.validatePayload == nil)
        #expect(configuration.maxRedirects == 10)
        #expect(configuration.isSecret(headerName: "COOKIE"))
        #expect(!configuration.isSecret(headerName: "Accept"))
        let session = URLSessionTransport.ephemeralConfiguration(timeout: 15)
        #expect(session.urlCache == nil)
        #expect(session.requestCachePolicy == .reloadIgnoringLocalCacheData)
        #expect(session.httpCookieStorage == nil)
        #expect(!session.httpShouldSetCookies)
    }

    @Test(
        "loopback detection",
        arguments: [
            ("localhost", true), ("LocalHost", true), ("localhost.", true), ("127.0.0.1", true), ("127.255.255.255", true),
            ("[::1]", true), ("::1", true), ("0:0:0:0:0:0:0:1", true), ("0000:0000:0000:0000:0000:0000:0000:0001", true),
            ("::", false), ("::2", false), ("1::1", false), ("126.0.0.1", false), ("127.0.0", false), ("127.0.0.256", false),
            ("127.1", false), ("localhost.localdomain", false), ("example.com", false), ("", false), ("1:2:3:4:5:6:7:8:9", false),
        ])
    func loopbackDetection(host: String, expected: Bool) {
        #expect(EndpointPolicy.isLoopback(host: host) == expected)
    }
}
