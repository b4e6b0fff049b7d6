import ConfigDomain
import Foundation
import Testing

/// A vendor's own engine, run as a Python child process: it generates random cases from a seed,
/// evaluates each with the vendor's SDK, and writes one JSON object per line.
///
/// The scripts live in `Integration/VendorDifferential/Oracles/`. `.ci/run` installs their
/// packages from PyPI; locally: `python3 -m pip install -r Integration/VendorDifferential/Oracles/requirements.txt`.
/// Without them the suites are skipped with that hint, unless `RC_REQUIRE_ORACLES=1` (set by
/// `.ci/run`), which turns a missing oracle into a failure.
struct Oracle: Sendable {
    /// The script's file name in `Oracles/`, for example `unleash_oracle.py`.
    let script: String
    /// The Python module whose import proves the SDK is installed, for example `yggdrasil_engine`.
    let module: String

    /// The folder of the oracle scripts.
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Oracles")

    /// The seed and number of cases: `RC_DIFF_SEED` and `RC_DIFF_CASES` when set (the long run), else the defaults.
    static func run(defaultSeed: UInt64, defaultCases: Int) -> (seed: UInt64, cases: Int) {
        let environment = ProcessInfo.processInfo.environment
        let seed = environment["RC_DIFF_SEED"].flatMap { UInt64($0) } ?? defaultSeed
        let cases = environment["RC_DIFF_CASES"].flatMap { Int($0) } ?? defaultCases
        return (seed, cases)
    }

    /// Whether `python3` can import the SDK.
    var isAvailable: Bool {
        (try? Self.python(["-c", "import \(module)"]).status) == 0
    }

    /// Whether a missing oracle must fail the run instead of skipping it (CI sets `RC_REQUIRE_ORACLES=1`).
    static var isRequired: Bool { ProcessInfo.processInfo.environment["RC_REQUIRE_ORACLES"] == "1" }

    /// Runs the script with `arguments` and returns each line it printed, parsed as JSON.
    func cases(_ arguments: [String]) throws -> [ConfigValue] {
        let scriptPath = Self.directory.appendingPathComponent(script).path
        let outcome = try Self.python([scriptPath] + arguments)
        guard outcome.status == 0 else {
            throw OracleError(description: "\(script) exited with status \(outcome.status): \(outcome.errors)")
        }
        var values: [ConfigValue] = []
        for line in outcome.output.split(separator: "\n") where !line.isEmpty {
            values.append(try JSONParser(maxDepth: 256).parse(Data(line.utf8)))
        }
        return values
    }

    /// Runs `python3` with `arguments` to its end; output and errors go through files, so a large
    /// output never fills a pipe the test is not reading.
    private static func python(_ arguments: [String]) throws -> (status: Int32, output: String, errors: String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("oracle-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let outputFile = folder.appendingPathComponent("out")
        let errorFile = folder.appendingPathComponent("err")
        guard FileManager.default.createFile(atPath: outputFile.path, contents: nil),
            FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        else { throw OracleError(description: "cannot create the oracle's output files in \(folder.path)") }
        let output = try FileHandle(forWritingTo: outputFile)
        let errors = try FileHandle(forWritingTo: errorFile)
        defer {
            try? output.close()
            try? errors.close()
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3"] + arguments
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        let printed = String(decoding: try Data(contentsOf: outputFile), as: UTF8.self)
        let complaints = String(decoding: try Data(contentsOf: errorFile), as: UTF8.self)
        return (process.terminationStatus, printed, complaints)
    }
}

/// An oracle that could not run.
struct OracleError: Error, CustomStringConvertible {
    var description: String
}

/// The trait that skips a suite whose oracle is missing, unless `RC_REQUIRE_ORACLES=1`.
extension Trait where Self == ConditionTrait {
    static func requiring(_ oracle: Oracle) -> Self {
        .enabled(
            if: Oracle.isRequired || oracle.isAvailable,
            Comment(
                rawValue: "python3 cannot import \(oracle.module); install the oracles with "
                    + "python3 -m pip install -r Integration/VendorDifferential/Oracles/requirements.txt"))
    }
}
