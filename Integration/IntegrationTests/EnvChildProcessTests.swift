import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite("EnvChildProcess, the child-process runner of the override integration tests")
struct EnvChildProcessTests {
    @Test("a child that outlives its deadline is stopped, killed if it must be, and waited for")
    func stopsAChildThatDoesNotExit() async throws {
        let outcome = try await EnvChildProcess.run(
            URL(fileURLWithPath: "/bin/sleep"), arguments: ["600"], environment: [:],
            currentDirectory: FileManager.default.temporaryDirectory, deadline: 0.2, grace: 0.3)
        #expect(outcome.timedOut)
        // SIGTERM when the inherited mask lets it through, SIGKILL when it is blocked.
        #expect([SIGTERM, SIGKILL].contains(outcome.status))
    }

    @Test("a missing product is an error that says how to build it")
    func missingProduct() {
        #expect {
            _ = try EnvChildProcess.product(named: "NoSuchFixture-\(UUID().uuidString)")
        } throws: { error in
            "\(error)".contains("swift build --build-tests")
        }
    }
}
