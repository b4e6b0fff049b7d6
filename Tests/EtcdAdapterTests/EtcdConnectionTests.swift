import ConfigDomain
import Foundation
import Testing

@testable import EtcdAdapter

@Suite("EtcdConnection, credentials and layouts")
struct EtcdConnectionTests {
    private static func refusal(_ connection: EtcdConnection) -> String? {
        do {
            try connection.validate()
            return nil
        } catch {
            #expect(error.kind == .invalidAdapterSetting)
            return error.message
        }
    }

    private static func url(_ text: String) -> URL { URL(string: text) ?? URL(fileURLWithPath: "/") }

    @Test("loopback http and any https are accepted; other plain http only with the opt-in")
    func endpoints() {
        for text in ["http://127.0.0.1:2379", "http://localhost:2379", "http://[::1]:2379", "https://etcd.example.com:2379"] {
            #expect(Self.refusal(EtcdConnection(endpoints: [Self.url(text)])) == nil, "\(text)")
        }
        for text in ["http://10.0.0.1:2379", "http://127.evil.example:2379"] {
            let message = Self.refusal(EtcdConnection(endpoints: [Self.url(text)]))
            #expect(message?.contains("plain http") == true, "\(text)")
        }
        #expect(
            Self.refusal(
                EtcdConnection(endpoints: [Self.url("http://10.0.0.1:2379")], allowsInsecureHTTPForNonLoopbackHosts: true))
                == nil)
    }

    @Test("no endpoints, another scheme, or timings out of range are refused with what to fix")
    func refusals() {
        #expect(Self.refusal(EtcdConnection(endpoints: []))?.contains("no endpoints") == true)
        #expect(
            Self.refusal(EtcdConnection(endpoints: [Self.url("ftp://h")]))?.contains("not an http:// or https:// URL") == true)
        let local = [Self.url("http://127.0.0.1:2379")]
        #expect(Self.refusal(EtcdConnection(endpoints: local, requestTimeout: 0))?.contains("requestTimeout") == true)
        #expect(Self.refusal(EtcdConnection(endpoints: local, watchIdleTimeout: -1))?.contains("watchIdleTimeout") == true)
        #expect(Self.refusal(EtcdConnection(endpoints: local, reconnectDelay: 0...1))?.contains("reconnectDelay") == true)
        #expect(throws: ConfigurationError.self) {
            try EtcdFetcher(connection: EtcdConnection(endpoints: local), layout: .prefix(""))
        }
        #expect(throws: ConfigurationError.self) {
            try EtcdWatcher(connection: EtcdConnection(endpoints: []), layout: .document(key: "/c"))
        }
    }

    @Test("the password never shows in a description or a mirror")
    func credentials() {
        let credentials = EtcdCredentials(username: "app", password: "s3cret-pw")
        #expect(!"\(credentials)".contains("s3cret-pw"))
        #expect(!String(reflecting: credentials).contains("s3cret-pw"))
        var dumped = ""
        dump(credentials, to: &dumped)
        #expect(!dumped.contains("s3cret-pw"))
        #expect("\(credentials)".contains("app"))
    }

    @Test("names: layouts, fetcher and watcher say where they read")
    func names() throws {
        let connection = EtcdConnection(endpoints: [Self.url("http://127.0.0.1:2379")])
        #expect(EtcdLayout.prefix("/f/").description == "prefix /f/")
        #expect(try EtcdWatcher(connection: connection, layout: .document(key: "/c")).name == "etcd http://127.0.0.1:2379 key /c")
        #expect(
            "\(try EtcdFetcher(connection: connection, layout: .document(key: "/c")))"
                == "EtcdFetcher(key /c at http://127.0.0.1:2379)")
    }
}
