import Foundation
import Testing

extension EtcdClusterTests {
    /// `remote-config publish` as a real child process, against the suite's etcd cluster.
    @Suite("remote-config publish, validate then write to etcd")
    struct PublishCommand {
        private var manifest: String { CLIProcess.examples.appendingPathComponent("manifest.json").path }
        private var exampleConfig: URL { CLIProcess.examples.appendingPathComponent("config.json") }

        private func key() -> String { "/rc-publish/\(UUID().uuidString)/config" }

        @Test("a valid file is written byte for byte, and the revision is printed")
        func publishes() async throws {
            let cluster = try EtcdClusterTrait.cluster()
            let key = key()
            let endpoints = cluster.endpoints.map(\.absoluteString).joined(separator: ",")
            let outcome = try await CLIProcess.run([
                "publish", exampleConfig.path, "--etcd", endpoints, "--key", key, "--keys", manifest,
            ])
            #expect(outcome.status == 0, "stderr: \(outcome.standardError)")
            let revision = try #require(try await cluster.modRevision(of: key))
            #expect(outcome.standardOutput.contains("to \(key) at revision \(revision)"), "\(outcome.standardOutput)")
            #expect(try await cluster.value(of: key) == (try Data(contentsOf: exampleConfig)))
        }

        @Test("a file that is not JSON exits 1 with the line and column, and etcd is untouched")
        func invalidJSON() async throws {
            let cluster = try EtcdClusterTrait.cluster()
            let scratch = try CLIScratch()
            defer { scratch.remove() }
            let key = key()
            let before = try await cluster.put(key, #"{"max_retries":3}"#)
            let file = try scratch.write("config.json", "{\n  \"max_retries\": 3,\n}\n")
            let outcome = try await CLIProcess.run([
                "publish", file.path, "--etcd", cluster.endpoints[0].absoluteString, "--key", key,
            ])
            #expect(outcome.status == 1)
            #expect(outcome.standardError.contains("(line 2, column 19)"), "\(outcome.standardError)")
            #expect(outcome.standardError.contains("no trailing comma"), "\(outcome.standardError)")
            #expect(outcome.standardError.contains("nothing was published"))
            #expect(try await cluster.modRevision(of: key) == before)
        }

        @Test("a value the manifest's rules reject exits 1, prints the rejection, and etcd is untouched")
        func rejectedValue() async throws {
            let cluster = try EtcdClusterTrait.cluster()
            let scratch = try CLIScratch()
            defer { scratch.remove() }
            let key = key()
            let file = try scratch.write("config.json", #"{"max_retries": 42}"#)
            let outcome = try await CLIProcess.run([
                "publish", file.path, "--etcd", cluster.endpoints[0].absoluteString, "--key", key, "--keys", manifest,
            ])
            #expect(outcome.status == 1)
            #expect(
                outcome.standardOutput.contains("max_retries: value 42 rejected by range(0...10)"), "\(outcome.standardOutput)")
            #expect(outcome.standardError.contains("1 value is rejected"), "\(outcome.standardError)")
            #expect(try await cluster.modRevision(of: key) == nil)
        }

        @Test("an unreachable cluster exits 1 naming each endpoint; --user without a password exits 2")
        func failures() async throws {
            let closed = "http://127.0.0.1:\(try NginxRunner.freePort())"
            let unreachable = try await CLIProcess.run(["publish", exampleConfig.path, "--etcd", closed, "--key", key()])
            #expect(unreachable.status == 1)
            #expect(unreachable.standardError.contains("\(closed): connection refused"), "\(unreachable.standardError)")

            let noPassword = try await CLIProcess.run([
                "publish", exampleConfig.path, "--etcd", closed, "--key", key(), "--user", "app",
            ])
            #expect(noPassword.status == 2)
            #expect(noPassword.standardError.contains("REMOTE_CONFIG_ETCD_PASSWORD"), "\(noPassword.standardError)")

            let plain = try await CLIProcess.run([
                "publish", exampleConfig.path, "--etcd", "http://10.1.2.3:2379", "--key", key(),
            ])
            #expect(plain.status == 2)
            #expect(plain.standardError.contains("--allow-insecure-http"), "\(plain.standardError)")
        }
    }
}
