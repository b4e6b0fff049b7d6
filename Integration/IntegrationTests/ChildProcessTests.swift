import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite("ChildProcess, the child-process runner of the integration tests")
struct ChildProcessTests {
    @Test("a child that outlives its deadline is stopped, killed if it must be, and waited for")
    func stopsAChildThatDoesNotExit() async throws {
        let outcome = try await ChildProcess.run(
            URL(fileURLWithPath: "/bin/sleep"), arguments: ["600"], environment: [:],
            currentDirectory: FileManager.default.temporaryDirectory, deadline: 0.2, grace: 0.3)
        #expect(outcome.timedOut)
        // SIGTERM when the child's mask lets it through (the default), SIGKILL when it is blocked.
        #expect([SIGTERM, SIGKILL].contains(outcome.status))
    }

    @Test("a missing product is an error that says how to build it")
    func missingProduct() {
        #expect {
            _ = try BuiltProducts.executable(named: "NoSuchFixture-\(UUID().uuidString)")
        } throws: { error in
            "\(error)".contains("swift build --build-tests")
        }
    }

    @Test("a child that blocks SIGTERM is killed with SIGKILL once the grace period is over")
    func killsAChildThatBlocksSIGTERM() async throws {
        let child = try ChildProcess(URL(fileURLWithPath: "/bin/sleep"), arguments: ["600"], blocking: [SIGTERM])
        let ending = await child.stop(signal: SIGTERM, grace: 0.3)
        #expect(ending == .signaled(SIGKILL))
        #expect(child.ending == ending)
    }

    @Test("output arrives line by line, standard error apart or merged, and a line that never comes is nil at the end")
    func collectsOutput() async throws {
        let script = "echo one; echo two >&2; echo three; printf last"
        let apart = try ChildProcess(URL(fileURLWithPath: "/bin/sh"), arguments: ["-c", script])
        #expect(await apart.output.line { $0.hasPrefix("thr") } == "three")
        #expect(await apart.output.line { $0 == "never" } == nil)
        #expect(await apart.waitForExit() == .exited(0))
        await apart.errors.waitForEnd(within: 30)
        #expect(apart.output.lines == ["one", "three", "last"])
        #expect(apart.output.text == "one\nthree\nlast")
        #expect(apart.errors.text == "two\n")

        let merged = try ChildProcess(URL(fileURLWithPath: "/bin/sh"), arguments: ["-c", script], mergingErrors: true)
        #expect(await merged.output.line { $0 == "last" } == "last")
        #expect(merged.output.lines == ["one", "two", "three", "last"])
        #expect(merged.errors.text.isEmpty)
        #expect(await merged.waitForExit() == .exited(0))
    }
}
