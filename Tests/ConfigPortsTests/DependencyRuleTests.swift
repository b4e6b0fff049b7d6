import Foundation
import Testing

/// The dependency rule, checked from the tests too: each library module imports only what it may.
@Suite("Dependency rule")
struct DependencyRuleTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static let platform: Set<String> = [
        "Foundation", "FoundationNetworking", "FoundationEssentials", "Glibc", "Darwin", "Musl", "Android", "WinSDK",
        "ucrt", "Dispatch", "os", "Security",
    ]

    static let allowed: [String: Set<String>] = [
        "ConfigDomain": ["Foundation", "FoundationEssentials"],
        "ConfigPorts": platform.union(["ConfigDomain"]),
        "HTTPAdapter": platform.union(["ConfigDomain", "ConfigPorts"]),
        "FileCacheAdapter": platform.union(["ConfigDomain", "ConfigPorts"]),
        "EnvAdapter": platform.union(["ConfigDomain", "ConfigPorts"]),
        "TestDoubles": platform.union(["ConfigDomain", "ConfigPorts", "Testing"]),
        "RemoteConfig": platform.union(["ConfigDomain", "ConfigPorts", "Atomics"]),  // swift-atomics: the lock-free read path
    ]

    /// What the shared test-support target (Tests/TestSupport, not a product) may import: FlyingFox, as tests may.
    static let testSupportAllowed = platform.union(["FlyingFox", "FlyingSocks", "ConfigDomain", "ConfigPorts"])

    /// The module named by an import line, or nil when the line is not an import.
    static func importedModule(_ line: String) -> String? {
        var words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        while let first = words.first,
            first.hasPrefix("@") || ["public", "internal", "package", "private", "fileprivate"].contains(first)
        {
            words.removeFirst()
        }
        guard words.first == "import", words.count >= 2 else { return nil }
        var name = words[1]
        if ["struct", "class", "enum", "protocol", "typealias", "func", "let", "var"].contains(name), words.count >= 3 {
            name = words[2]
        }
        return String(name.split(separator: ".").first ?? Substring(name))
    }

    /// Every import in the Swift files under `directory`: the file's name and the module imported.
    static func imports(under directory: URL) throws -> [(file: String, module: String)] {
        let enumerator = try #require(FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil))
        var found: [(file: String, module: String)] = []
        for case let file as URL in enumerator where file.pathExtension == "swift" {
            let text = try String(contentsOf: file, encoding: .utf8)
            for line in text.split(separator: "\n") {
                if let imported = importedModule(String(line)) { found.append((file.lastPathComponent, imported)) }
            }
        }
        return found
    }

    @Test("every library module imports only what the rule allows", arguments: allowed.keys.sorted())
    func moduleImports(_ module: String) throws {
        let found = try Self.imports(under: Self.root.appendingPathComponent("Modules").appendingPathComponent(module))
        for (file, imported) in found {
            #expect(Self.allowed[module]?.contains(imported) == true, "\(file): \(module) must not import \(imported)")
        }
        #expect(!found.isEmpty)
    }

    @Test("the shared test-support target imports only platform modules, FlyingFox and the core modules")
    func testSupportImports() throws {
        let found = try Self.imports(under: Self.root.appendingPathComponent("Tests/TestSupport"))
        for (file, imported) in found {
            #expect(Self.testSupportAllowed.contains(imported), "\(file): TestSupport must not import \(imported)")
        }
        #expect(found.contains { $0.module == "FlyingFox" })
    }

    @Test("no library product contains the test-support target, and no library module may import it")
    func testSupportIsNotALibrary() throws {
        let manifest = try String(contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let products = manifest.split(separator: "\n").filter { $0.contains(".library(") }
        #expect(products.count == Self.allowed.count, "one library product per module: \(products)")
        #expect(!products.contains { $0.contains("TestSupport") })
        #expect(Self.allowed.values.allSatisfy { !$0.contains("TestSupport") })
    }

    @Test("the import-line reader understands every import form")
    func importForms() {
        #expect(Self.importedModule("import Foundation") == "Foundation")
        #expect(Self.importedModule("@_exported import ConfigDomain") == "ConfigDomain")
        #expect(Self.importedModule("public import struct HTTPAdapter.HTTPFetcher") == "HTTPAdapter")
        #expect(Self.importedModule("    @testable import RemoteConfig") == "RemoteConfig")
        #expect(Self.importedModule("// import Nothing") == nil)
        #expect(Self.importedModule("let important = 1") == nil)
    }

    @Test("every module directory has a rule")
    func everyModuleHasARule() throws {
        let modules = try FileManager.default.contentsOfDirectory(atPath: Self.root.appendingPathComponent("Modules").path)
        #expect(Set(modules.filter { !$0.hasPrefix(".") }) == Set(Self.allowed.keys))
    }
}
