import ConfigDomain
import Foundation
import OFREPAdapter
import Testing

/// OFREP_ENDPOINT, OFREP_HEADERS and OFREP_TIMEOUT_MS, and the settings checked when a fetcher is made.
@Suite("OFREP configuration")
struct OFREPConfigurationTests {
    private func environment(_ headers: String? = nil, timeout: String? = nil) -> [String: String] {
        var environment = ["OFREP_ENDPOINT": "https://flags.example.com"]
        environment["OFREP_HEADERS"] = headers
        environment["OFREP_TIMEOUT_MS"] = timeout
        return environment
    }

    private func error(_ environment: [String: String]) -> OFREPConfigurationError? {
        do throws(OFREPConfigurationError) {
            _ = try OFREPFetcher.Configuration.fromEnvironment(environment)
            return nil
        } catch {
            return error
        }
    }

    @Test("the three variables make a configuration")
    func fromEnvironment() throws {
        let configuration = try OFREPFetcher.Configuration.fromEnvironment(
            environment(" Authorization=Bearer%20abc123 , X-Tenant = acme,,X-Note=a=b ", timeout: "2500"))
        #expect(configuration.endpoint.absoluteString == "https://flags.example.com")
        #expect(configuration.headers == ["Authorization": "Bearer abc123", "X-Tenant": "acme", "X-Note": "a=b"])
        #expect(configuration.timeout == 2.5)
        let defaults = try OFREPFetcher.Configuration.fromEnvironment(environment())
        #expect(defaults.headers.isEmpty)
        #expect(defaults.timeout == 10)
    }

    @Test("a literal space in a value is kept, as OpenFeature's own example writes it")
    func literalSpace() throws {
        let configuration = try OFREPFetcher.Configuration.fromEnvironment(environment("Authorization=Bearer 123"))
        #expect(configuration.headers["Authorization"] == "Bearer 123")
    }

    @Test("a missing or bad endpoint is a typed error that says what to set")
    func endpoints() {
        #expect(error([:])?.kind == .missingEndpoint)
        #expect(error(["OFREP_ENDPOINT": "  "])?.kind == .missingEndpoint)
        #expect(error(["OFREP_ENDPOINT": "ftp://flags.example.com"])?.kind == .invalidEndpoint)
        #expect(error(["OFREP_ENDPOINT": "flags.example.com"])?.kind == .invalidEndpoint)
        #expect(error([:])?.message.contains("OFREP_ENDPOINT") == true)
    }

    @Test(
        "a bad header entry names the entry and the header, never the value",
        arguments: [
            ("Authorization", 1), ("Authorization=Bearer%zzsecret9", 1), ("X-Ok=1,Bad Name=secret9", 2),
            ("=secret9", 1), ("X-A=1,X-B=line%0Abreak-secret9", 2),
        ])
    func badHeaders(headers: String, entry: Int) throws {
        let failure = try #require(error(environment(headers)))
        #expect(failure.kind == .invalidHeader(entry: entry))
        #expect(failure.message.contains("OFREP_HEADERS entry \(entry)"))
        #expect(!failure.message.contains("secret9"))
    }

    @Test(
        "a timeout that is not a positive whole number of milliseconds is a typed error", arguments: ["0", "-5", "1.5", "soon"])
    func badTimeouts(timeout: String) throws {
        let failure = try #require(error(environment(timeout: timeout)))
        #expect(failure.kind == .invalidTimeout)
        #expect(failure.message.contains("OFREP_TIMEOUT_MS"))
    }

    @Test("plain http is refused except to loopback or with the opt-in; settings out of range are refused")
    func fetcherChecks() throws {
        func refusal(_ configuration: OFREPFetcher.Configuration) -> OFREPConfigurationError.Kind? {
            do throws(OFREPConfigurationError) {
                _ = try OFREPFetcher(configuration: configuration)
                return nil
            } catch {
                return error.kind
            }
        }
        let remote = try #require(URL(string: "http://flags.example.com"))
        #expect(refusal(.init(endpoint: remote)) == .insecureEndpoint)
        #expect(refusal(.init(endpoint: remote, allowsInsecureHTTPForNonLoopbackHosts: true)) == nil)
        for host in ["127.0.0.1", "localhost", "[::1]"] {
            #expect(refusal(.init(endpoint: try #require(URL(string: "http://\(host):8016")))) == nil, "\(host)")
        }
        let secure = try #require(URL(string: "https://flags.example.com"))
        #expect(refusal(.init(endpoint: secure, timeout: 0)) == .invalidTimeout)
        #expect(refusal(.init(endpoint: secure, maxBodySize: 0)) == .invalidLimit)
        #expect(refusal(.init(endpoint: secure, headers: ["Bad Name": "x"])) == .invalidHeader(entry: 1))
        #expect(refusal(.init(endpoint: try #require(URL(string: "file:///tmp/flags")))) == .invalidEndpoint)
    }

    @Test("descriptions and dumps show secret header values redacted")
    func redaction() throws {
        let configuration = OFREPFetcher.Configuration(
            endpoint: try #require(URL(string: "https://flags.example.com/?key=query-secret")),
            headers: ["Authorization": "Bearer token-secret", "X-Tenant": "acme", "X-Session": "session-secret"],
            secretHeaderNames: ["x-session"])
        var dumped = ""
        dump(configuration, to: &dumped)
        for text in [configuration.description, dumped, String(describing: try OFREPFetcher(configuration: configuration))] {
            #expect(!text.contains("token-secret"))
            #expect(!text.contains("session-secret"))
            #expect(!text.contains("query-secret"))
        }
        #expect(configuration.description.contains("acme"))
        #expect(configuration.isSecret(headerName: "X-API-KEY"))
    }
}
