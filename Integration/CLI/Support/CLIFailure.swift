import ArgumentParser
import Foundation

/// A failure the tool reports as one line on standard error, with the exit code it documents.
///
/// Exit codes: 1 when the command ran and found a problem (a fetch failed, a config has rejected
/// values); 2 when it could not do its job because of its input (a missing file, a bad manifest,
/// a refused URL, a port in use). Wrong usage exits 64, from the argument parser.
struct CLIFailure: Error, CustomStringConvertible {
    /// What went wrong and what to do, in one line.
    var message: String
    /// The process's exit code.
    var exitCode: Int32

    /// The command ran and found a problem (exit 1).
    static func problem(_ message: String) -> CLIFailure { CLIFailure(message: message, exitCode: 1) }

    /// The command could not run because of its input (exit 2).
    static func input(_ message: String) -> CLIFailure { CLIFailure(message: message, exitCode: 2) }

    var description: String { message }
}

/// Runs a command's body, printing a ``CLIFailure`` as one line and exiting with its code.
func reportingFailures(_ body: () async throws -> Void) async throws {
    do {
        try await body()
    } catch let failure as CLIFailure {
        Console.shared.failure(failure.message)
        throw ExitCode(failure.exitCode)
    }
}
