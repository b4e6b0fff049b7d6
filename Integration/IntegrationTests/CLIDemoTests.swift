import Foundation
import Testing

/// `remote-config demo` and the tool's help, as a new user meets them.
@Suite("remote-config demo and help")
struct CLIDemoTests {
    @Test("demo runs the whole story to completion with exit status 0, narrating each step")
    func demoRuns() async throws {
        let outcome = try await CLIProcess.run(["demo"])
        #expect(outcome.status == 0, "stderr: \(outcome.standardError)")
        #expect(outcome.standardError.isEmpty)
        let text = outcome.standardOutput
        let sentences = [
            "OK: 10 keys declared, 10 values accepted, 0 rejected.",
            "Nothing is cached yet and nothing was fetched, so every read returns its key's default:",
            "new_checkout     false",
            "The same reads now return the remote values, already converted and checked:",
            "new_checkout     true",
            "the server answered 304 Not Modified: nothing was downloaded.",
            "A refresh fails with a typed error: transport (retry with backoff). Nothing is thrown at the reader:",
            "new_checkout = true  still the remote value the client held, now stale",
            "theme            \"system\"                                  from override environment (DEMO_THEME)",
            "rejected DEMO_MAX_RETRIES=99: 99 is outside 0...10, so the cached value is used",
            "→ \"Hello from your local config server!\"",
            "200 OK: 1 key changed (welcome_message), and the listener got the update:",
            "→ \"Spring is here: free shipping all week!\"",
            "error  max_retries: value 50 rejected by range(0...10): 50 is outside 0...10",
            "max_retries = 5  from the last good remote",
            "refused /config.json: not valid JSON at byte",
            "The server kept serving the last good version, so the client's refresh got 304 Not Modified.",
            "Done in ",
        ]
        for sentence in sentences { #expect(text.contains(sentence), "missing: \(sentence)\n\(text)") }
        #expect(!text.contains("\u{1B}["), "no colour when the output is not a terminal")
    }

    @Test("--help names every subcommand, and each subcommand's help explains it")
    func help() async throws {
        let root = try await CLIProcess.run(["--help"])
        #expect(root.status == 0)
        for command in ["demo", "serve", "fetch", "inspect", "validate"] {
            #expect(root.standardOutput.contains("  \(command) "), "missing \(command) in:\n\(root.standardOutput)")
            let help = try await CLIProcess.run([command, "--help"])
            #expect(help.status == 0)
            #expect(help.standardOutput.contains("USAGE: remote-config \(command)"))
        }
        let serve = try await CLIProcess.run(["serve", "--help"])
        for flag in ["--port", "--delay", "--status", "--retry-after", "--truncate", "--fail-rate", "--seed"] {
            #expect(serve.standardOutput.contains(flag))
        }
    }

    @Test("an unknown subcommand is a usage error with exit status 64")
    func unknownCommand() async throws {
        let outcome = try await CLIProcess.run(["serv"])
        #expect(outcome.status == 64)
        #expect(outcome.standardError.contains("serv"))
    }
}
