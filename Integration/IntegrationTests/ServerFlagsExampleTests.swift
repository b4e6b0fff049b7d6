// The server example exists only with a Swift 6.2 or later toolchain (see Package.swift).
#if compiler(>=6.2)
    import Foundation
    import TestSupport
    import Testing

    /// Runs `Integration/Examples/ServerFlags` as a child process against a real HTTP server on 127.0.0.1:
    /// it reads its settings through swift-configuration's `ConfigReader` and logs through swift-log.
    @Suite("Server example (swift-configuration, swift-log)")
    struct ServerFlagsExampleTests {
        static let payload = #"{"new_checkout": true, "checkout_limit": 25, "payment_token": "pay-s3cr3t-4b7e9d"}"#

        /// Runs the example with exactly `arguments` and `environment` (nothing inherited: no stray variable overrides).
        private func run(_ arguments: [String], environment: [String: String] = [:]) async throws -> ChildProcess.Outcome {
            let executable = try BuiltProducts.executable(named: "ServerFlagsExample")
            await CLIProcess.slots.acquire()
            let result = await Result {
                try await ChildProcess.run(
                    executable, arguments: arguments, environment: environment,
                    currentDirectory: FileManager.default.temporaryDirectory)
            }
            CLIProcess.slots.release()
            let outcome = try result.get()
            #expect(!outcome.timedOut, "ServerFlagsExample did not exit on its own")
            return outcome
        }

        /// The output's lines that contain `text`.
        private func lines(_ outcome: ChildProcess.Outcome, containing text: String) -> [Substring] {
            outcome.standardOutput.split(separator: "\n").filter { $0.contains(text) }
        }

        @Test("reads the server's flag through ConfigReader and logs the client's story and its own line through swift-log")
        func readsAndLogs() async throws {
            let server = try await TestHTTPServer.start()
            server.publish(Self.payload)
            let outcome = try await run([server.url().absoluteString])
            await server.stop()
            #expect(outcome.status == 0, "\(outcome.standardError)")
            let serving = lines(outcome, containing: "serving")
            #expect(serving.count == 1)
            #expect(serving.first?.contains("new_checkout=true") == true)
            #expect(serving.first?.contains("checkout_limit=25") == true)
            #expect(serving.first?.contains("payment_token=set") == true)
            #expect(serving.first?.contains(" info ") == true)
            #expect(lines(outcome, containing: "config.event=activated").count == 1, "one activation, reported once")
            #expect(lines(outcome, containing: "config.event=refreshed").isEmpty)
            #expect(!outcome.standardOutput.contains("s3cr3t"), "the secret token is never logged")
            #expect(outcome.standardError.isEmpty)
        }

        @Test("an environment variable overrides through swift-configuration's environment provider; a bad one is logged")
        func environmentOverrides() async throws {
            let server = try await TestHTTPServer.start()
            server.publish(Self.payload)
            let overridden = try await run([server.url().absoluteString], environment: ["CHECKOUT_LIMIT": "50"])
            let outOfRange = try await run([server.url().absoluteString], environment: ["CHECKOUT_LIMIT": "500"])
            await server.stop()
            #expect(lines(overridden, containing: "serving").first?.contains("checkout_limit=50") == true)
            #expect(lines(outOfRange, containing: "serving").first?.contains("checkout_limit=25") == true)
            let rejected = lines(outOfRange, containing: "config.event=value_rejected")
            #expect(rejected.count == 1)
            #expect(rejected.first?.contains(" warning ") == true)
            #expect(rejected.first?.contains("config.origin=CHECKOUT_LIMIT") == true)
        }

        @Test("with the server gone it serves the defaults and logs the failed refresh as a warning")
        func serverGone() async throws {
            let server = try await TestHTTPServer.start()
            let url = server.url()
            await server.stop()
            let outcome = try await run([url.absoluteString])
            #expect(outcome.status == 0)
            #expect(lines(outcome, containing: "serving").first?.contains("new_checkout=false") == true)
            #expect(lines(outcome, containing: "serving").first?.contains("payment_token=missing") == true)
            let failed = lines(outcome, containing: "config.event=refresh_failed")
            #expect(failed.count == 1)
            #expect(failed.first?.contains(" warning ") == true)
            #expect(failed.first?.contains("config.error_kind=fetch.transport") == true)
        }

        @Test("a client that cannot be built (plain HTTP to another host) is logged as an error; exit 1")
        func clientNotBuilt() async throws {
            let outcome = try await run(["http://config.example.invalid/config.json"])
            #expect(outcome.status == 1)
            let error = lines(outcome, containing: "cannot build the configuration client")
            #expect(error.count == 1)
            #expect(error.first?.contains(" error ") == true)
            #expect(error.first?.contains("invalidAdapterSetting") == true)
        }

        @Test("a bad command line exits 64 with the usage")
        func usage() async throws {
            for arguments in [[], ["not a url"], ["http://127.0.0.1:1/a", "extra"]] {
                let outcome = try await run(arguments)
                #expect(outcome.status == 64, "\(arguments)")
                #expect(outcome.standardError.contains("usage: ServerFlagsExample <configuration URL>"))
                #expect(outcome.standardOutput.isEmpty)
            }
        }
    }
#endif
