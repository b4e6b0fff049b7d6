// THE DEPENDENCY RULE. This file is its one statement; Package.swift and the docs point here.
//
// Every folder under Modules/ is one library module. Each may import only:
//
//   ConfigDomain   Foundation. The pure domain: keys, values, rules, errors.
//   ConfigPorts    platform modules and ConfigDomain. The protocols adapters implement, and `Locked`.
//   RemoteConfig   platform modules, ConfigDomain and ConfigPorts, plus the toolchain's Synchronization for
//                  the read path's atomic. The client never imports an adapter nor a shared library: the app
//                  hands it adapters through the ports.
//   RemoteConfigApp  app support over the client: platform modules, ConfigDomain, ConfigPorts, RemoteConfig,
//                  Observation (under `#if canImport`) for `ObservableConfig`, and SwiftUI (under `#if canImport`)
//                  for its environment entry. Never an adapter nor a shared library; nothing else imports it.
//   TestDoubles    platform modules, ConfigDomain, ConfigPorts, and Testing (for ContractReport.recordIssues);
//                  never a shared library.
//   shared         the modules in `sharedLibraries` (today Targeting: the condition language, bucketing, hashes
//   libraries      and versions the rule dialects share; and HTTPSupport: URL policy, secret redaction,
//                  Retry-After, the "not now" status errors and the streaming session the HTTP adapters
//                  share): platform modules,
//                  ConfigDomain and ConfigPorts. A shared library never imports an adapter, another shared
//                  library, nor RemoteConfig.
//   any other      is an adapter (HTTPAdapter, FileCacheAdapter, EnvAdapter, FirebaseFormat, and every
//                  adapter added later): platform modules, ConfigDomain, ConfigPorts and the shared libraries.
//                  An adapter never imports another adapter, nor RemoteConfig.
//
// "Platform modules" are those of the operating system, Foundation and Dispatch, listed in `platform`
// below; never a package.
// In Package.swift, a library target depends only on the package modules it may import, and never on a
// third-party package, except an adapter whose whole point is one ecosystem package, as its own product.
// Each such third-party edge is recorded in `thirdPartyEdges` below, and allowed nowhere else:
//
//   SigningAdapter       -> Crypto (apple/swift-crypto): Ed25519 signatures of payloads.
//   ConfigurationAdapter -> Configuration (apple/swift-configuration): remote values in a ConfigReader.
//   LoggingAdapter       -> Logging (apple/swift-log): client events as log lines.
//   MetricsAdapter       -> CoreMetrics (apple/swift-metrics): client events as metrics.
//   ServiceContextAdapter -> ServiceContextModule (apple/swift-service-context): a request's user, task-local.
//   ServiceLifecycleAdapter -> ServiceLifecycle (swift-server/swift-service-lifecycle): the client as a Service.
// Each such edge is conditional on the package trait named after the adapter, off by default, so that a
// consumer resolves only the packages of the adapters it enables (ConsumerResolutionTests shows the list).
// Tests/TestSupport, shared by the test targets, may import platform modules, FlyingFox and the two core
// modules. It is not a product, and no library module imports it.
import Foundation
import Testing

@Suite("Dependency rule")
struct DependencyRuleTests {
    /// The repository: the nearest folder above this file (symbolic links resolved) that holds `Package.swift` and `Modules`.
    static let root: URL = {
        let file = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
        var folder = file.deletingLastPathComponent()
        while folder.pathComponents.count > 1 {
            let manifest = folder.appendingPathComponent("Package.swift").path
            let modules = folder.appendingPathComponent("Modules").path
            if FileManager.default.fileExists(atPath: manifest) && FileManager.default.fileExists(atPath: modules) {
                return folder
            }
            folder = folder.deletingLastPathComponent()
        }
        return file.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }()

    /// The modules of the operating system, Foundation and the Swift toolchain.
    static let platform: Set<String> = [
        "Foundation", "FoundationNetworking", "FoundationEssentials", "Glibc", "Darwin", "Musl", "Android", "WinSDK",
        "ucrt", "Dispatch", "os", "Security",
    ]

    /// The two modules every other module builds on.
    static let core: Set<String> = ["ConfigDomain", "ConfigPorts"]

    /// THE shared libraries: code several adapters share, which adapters may import and the client never does.
    static let sharedLibraries: Set<String> = ["Targeting", "HTTPSupport"]

    /// What the core modules, the client and the doubles may import (shared libraries and adapters: `allowedImports`).
    static let rules: [String: Set<String>] = [
        "ConfigDomain": ["Foundation", "FoundationEssentials"],
        "ConfigPorts": platform.union(["ConfigDomain"]),
        // Synchronization (the toolchain's) for the read path's atomic version only, in State/StateCell.swift.
        "RemoteConfig": platform.union(core).union(["Synchronization"]),
        // Observation and SwiftUI, each under `#if canImport`.
        "RemoteConfigApp": platform.union(core).union(["RemoteConfig", "Observation", "SwiftUI"]),
        "TestDoubles": platform.union(core).union(["Testing"]),
    ]

    /// The adapters today. Any other folder under Modules/ is an adapter too; these are listed so
    /// that the tests notice when they look in the wrong place and find none.
    static let knownAdapters: Set<String> = [
        "HTTPAdapter", "FileCacheAdapter", "EnvAdapter", "FirebaseFormat", "SSEAdapter", "SigningAdapter", "EtcdAdapter",
        "ConfigurationAdapter", "LoggingAdapter", "MetricsAdapter", "DefaultsAdapter",
        "TargetingFormat", "GrowthBookFormat", "UnleashFormat", "FlagdFormat", "ServiceContextAdapter", "ServiceLifecycleAdapter",
        "OFREPAdapter", "LaunchDarklyFormat", "ConfigCatFormat",
    ]

    /// THE third-party edges: adapter -> [imported product module: its package]. Nothing else may
    /// depend on a third-party package.
    static let thirdPartyEdges: [String: [String: String]] = [
        "SigningAdapter": ["Crypto": "swift-crypto"],
        "ConfigurationAdapter": ["Configuration": "swift-configuration"],
        "LoggingAdapter": ["Logging": "swift-log"],
        "MetricsAdapter": ["CoreMetrics": "swift-metrics"],
        "ServiceContextAdapter": ["ServiceContextModule": "swift-service-context"],
        "ServiceLifecycleAdapter": ["ServiceLifecycle": "swift-service-lifecycle"],
    ]

    /// What the shared test-support target (Tests/TestSupport, not a product) may import: FlyingFox, as tests may.
    static let testSupportAllowed = platform.union(["FlyingFox", "FlyingSocks"]).union(core)

    /// The name of every folder under Modules/, sorted.
    static let modules: [String] = {
        let folder = root.appendingPathComponent("Modules")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { name in
            var isDirectory: ObjCBool = false
            let path = folder.appendingPathComponent(name).path
            return !name.hasPrefix(".") && FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
                && isDirectory.boolValue
        }.sorted()
    }()

    /// The modules under Modules/ that are adapters: every one without a rule of its own that is not a shared library.
    static var adapters: [String] { modules.filter { rules[$0] == nil && !sharedLibraries.contains($0) } }

    /// What `module` may import: its rule; for a shared library, platform modules and the core modules; for an
    /// adapter, those, the shared libraries, itself and its recorded third-party edge.
    static func allowedImports(of module: String) -> Set<String> {
        if let rule = rules[module] { return rule }
        if sharedLibraries.contains(module) { return platform.union(core) }
        return platform.union(core).union(sharedLibraries).union([module])
            .union(thirdPartyEdges[module].map { Set($0.keys) } ?? [])
    }

    /// The imports among `found` that the rule forbids `module`, each as `file imports Module`.
    static func violations(of module: String, in found: [(file: String, module: String)]) -> [String] {
        let allowed = allowedImports(of: module)
        return found.filter { !allowed.contains($0.module) }.map { "\($0.file) imports \($0.module)" }
    }

    // MARK: Reading imports

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

    // MARK: Reading Package.swift

    /// A target declared with `.target(` in Package.swift: its path and the quoted names in its dependencies.
    struct DeclaredTarget {
        /// The `path:` argument, for example `Modules/EnvAdapter`.
        var path: String
        /// Every quoted name in `dependencies: [...]`: modules, and the names inside `.product(...)`.
        var dependencies: [String]
        /// Whether the dependencies include a package product (a third-party package).
        var dependsOnAProduct: Bool
        /// Whether every package product among the dependencies is conditional on a trait.
        var conditionalProducts = false
        /// Every quoted name in `resources: [...]` (PrivacyManifestTests reads it).
        var resources: [String] = []
    }

    /// The text inside the bracket `text` starts with (`(` or `[`) and its matching closing bracket.
    static func enclosed(_ text: Substring) -> Substring? {
        guard let open = text.first, let close = ["(": Character(")"), "[": Character("]")][open] else { return nil }
        var depth = 0
        for index in text.indices {
            if text[index] == open { depth += 1 }
            if text[index] == close { depth -= 1 }
            if depth == 0 { return text[text.index(after: text.startIndex)..<index] }
        }
        return nil
    }

    /// The quoted string that follows `label` (for example `path: "`) in `text`, if any.
    static func quoted(after label: String, in text: Substring) -> String? {
        guard let start = text.range(of: label)?.upperBound else { return nil }
        return text[start...].split(separator: "\"", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init)
    }

    /// Every `.target(...)` declaration of `manifest` (library and support targets, not executables or tests).
    static func declaredTargets(in manifest: String) -> [DeclaredTarget] {
        var targets: [DeclaredTarget] = []
        var rest = manifest[...]
        while let marker = rest.range(of: ".target(") {
            let fromParenthesis = rest[rest.index(before: marker.upperBound)...]
            guard let declaration = enclosed(fromParenthesis) else { break }
            rest = rest[declaration.endIndex...]
            guard let path = quoted(after: "path: \"", in: declaration) else { continue }
            var dependencies: Substring = ""
            if let label = declaration.range(of: "dependencies: ") {
                dependencies = enclosed(declaration[label.upperBound...]) ?? ""
            }
            // Splitting at quotes puts every quoted name at an odd position.
            let parts = dependencies.split(separator: "\"", omittingEmptySubsequences: false)
            let names = parts.indices.filter { $0 % 2 == 1 }.map { String(parts[$0]) }
            let products = dependencies.components(separatedBy: ".product(").count - 1
            let conditional = dependencies.components(separatedBy: "condition: .when(traits:").count - 1
            var resources: [String] = []
            if let label = declaration.range(of: "resources: "), let list = enclosed(declaration[label.upperBound...]) {
                let parts = list.split(separator: "\"", omittingEmptySubsequences: false)
                resources = parts.indices.filter { $0 % 2 == 1 }.map { String(parts[$0]) }
            }
            targets.append(
                DeclaredTarget(
                    path: path, dependencies: names, dependsOnAProduct: products > 0,
                    conditionalProducts: products > 0 && conditional == products, resources: resources))
        }
        return targets
    }

    /// The text of the repository's Package.swift.
    static func manifest() throws -> String {
        try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
    }

    // MARK: The rule

    @Test("every folder under Modules/ imports only what the rule allows it", arguments: modules)
    func moduleImports(_ module: String) throws {
        let found = try Self.imports(under: Self.root.appendingPathComponent("Modules").appendingPathComponent(module))
        let allowed = Self.allowedImports(of: module).sorted().joined(separator: ", ")
        let violations = Self.violations(of: module, in: found)
        #expect(violations.isEmpty, "\(module) may import only \(allowed): \(violations)")
        #expect(!found.isEmpty)
    }

    @Test("no adapter imports another adapter or RemoteConfig", arguments: adapters)
    func adapterStaysApart(_ adapter: String) throws {
        let others = Set(Self.modules).subtracting(Self.core).subtracting(Self.sharedLibraries).subtracting([adapter])
        let found = try Self.imports(under: Self.root.appendingPathComponent("Modules").appendingPathComponent(adapter))
        let violations = found.filter { others.contains($0.module) }.map { "\($0.file) imports \($0.module)" }
        #expect(
            violations.isEmpty,
            "the adapter \(adapter) must depend only on ConfigDomain, ConfigPorts and shared libraries: \(violations)")
        #expect(!found.isEmpty)
    }

    @Test("the client, the doubles and the core import no shared library; a shared library imports no adapter")
    func sharedLibrariesStayBelowAdapters() {
        for module in Self.rules.keys {
            #expect(
                Self.allowedImports(of: module).isDisjoint(with: Self.sharedLibraries), "\(module) may import a shared library")
        }
        for library in Self.sharedLibraries {
            let allowed = Self.allowedImports(of: library)
            #expect(allowed.isDisjoint(with: Self.adapters), "\(library) may import an adapter")
            #expect(!allowed.contains("RemoteConfig") && allowed.isDisjoint(with: Self.sharedLibraries))
            #expect(Self.thirdPartyEdges[library] == nil, "a shared library depends on no third-party package")
        }
    }

    @Test("the rule catches an adapter importing another adapter, and a shared library in the wrong place")
    func violationsAreCaught() {
        let adapterImportsAdapter = Self.violations(of: "GrowthBookFormat", in: [("A.swift", "UnleashFormat")])
        #expect(adapterImportsAdapter == ["A.swift imports UnleashFormat"])
        #expect(Self.violations(of: "GrowthBookFormat", in: [("A.swift", "RemoteConfig")]) == ["A.swift imports RemoteConfig"])
        #expect(Self.violations(of: "GrowthBookFormat", in: [("A.swift", "Targeting"), ("B.swift", "ConfigPorts")]).isEmpty)
        #expect(Self.violations(of: "RemoteConfig", in: [("A.swift", "Targeting")]) == ["A.swift imports Targeting"])
        #expect(Self.violations(of: "TestDoubles", in: [("A.swift", "Targeting")]) == ["A.swift imports Targeting"])
        #expect(Self.violations(of: "ConfigDomain", in: [("A.swift", "Targeting")]) == ["A.swift imports Targeting"])
        #expect(Self.violations(of: "RemoteConfig", in: [("A.swift", "SwiftUI")]) == ["A.swift imports SwiftUI"])
        #expect(Self.violations(of: "RemoteConfigApp", in: [("A.swift", "HTTPAdapter")]) == ["A.swift imports HTTPAdapter"])
        #expect(Self.violations(of: "RemoteConfigApp", in: [("A.swift", "RemoteConfig"), ("B.swift", "SwiftUI")]).isEmpty)
        #expect(Self.violations(of: "Targeting", in: [("A.swift", "UnleashFormat")]) == ["A.swift imports UnleashFormat"])
        #expect(Self.violations(of: "Targeting", in: [("A.swift", "ConfigDomain"), ("B.swift", "Foundation")]).isEmpty)
        #expect(Self.violations(of: "OFREPAdapter", in: [("A.swift", "HTTPSupport")]).isEmpty)
        #expect(Self.violations(of: "HTTPSupport", in: [("A.swift", "HTTPAdapter")]) == ["A.swift imports HTTPAdapter"])
        #expect(Self.violations(of: "HTTPSupport", in: [("A.swift", "Targeting")]) == ["A.swift imports Targeting"])
        #expect(Self.violations(of: "RemoteConfig", in: [("A.swift", "HTTPSupport")]) == ["A.swift imports HTTPSupport"])
    }

    @Test("the tests find every module: the core, RemoteConfig, TestDoubles, the shared libraries and the known adapters")
    func everyKnownModuleIsFound() {
        let expected = Set(Self.rules.keys).union(Self.sharedLibraries).union(Self.knownAdapters)
        #expect(
            expected.isSubset(of: Self.modules),
            "found \(Self.modules) under \(Self.root.path)/Modules; missing \(expected.subtracting(Self.modules).sorted())")
    }

    @Test("Package.swift gives each library module only the package modules it may import, and no third-party package")
    func manifestDependencies() throws {
        let targets = try Self.declaredTargets(in: Self.manifest())
        for module in Self.modules {
            guard let target = targets.first(where: { $0.path == "Modules/\(module)" }) else {
                Issue.record("Package.swift declares no .target with path \"Modules/\(module)\"")
                continue
            }
            let edges = Self.thirdPartyEdges[module] ?? [:]
            #expect(
                !target.dependsOnAProduct || !edges.isEmpty,
                "\(module) depends on a package product; library targets must not, unless thirdPartyEdges records it")
            let forbidden = Set(target.dependencies).subtracting(Self.allowedImports(of: module)).subtracting(edges.values)
            #expect(forbidden.isEmpty, "\(module) depends on \(forbidden.sorted()) in Package.swift")
        }
    }

    @Test("each recorded third-party edge is an adapter's, and is the product its target really depends on")
    func thirdPartyEdgesAreUsed() throws {
        let targets = try Self.declaredTargets(in: Self.manifest())
        for (module, edges) in Self.thirdPartyEdges {
            #expect(Self.adapters.contains(module), "\(module) has a third-party edge but is not an adapter under Modules/")
            let target = try #require(targets.first { $0.path == "Modules/\(module)" })
            #expect(target.dependsOnAProduct)
            for (product, package) in edges {
                #expect(
                    target.dependencies.contains(product) && target.dependencies.contains(package),
                    "\(module) is recorded to depend on \(product) from \(package), but Package.swift does not say so")
            }
            #expect(
                target.dependencies.contains(module) && target.conditionalProducts,
                "\(module)'s third-party edge must be conditional on the trait \"\(module)\": .when(traits: [\"\(module)\"])")
        }
    }

    // MARK: Test support

    @Test("the shared test-support target imports only platform modules, FlyingFox and the core modules")
    func testSupportImports() throws {
        let found = try Self.imports(under: Self.root.appendingPathComponent("Tests/TestSupport"))
        for (file, imported) in found {
            #expect(Self.testSupportAllowed.contains(imported), "\(file): TestSupport must not import \(imported)")
        }
        #expect(found.contains { $0.module == "FlyingFox" })
    }

    @Test("no library product contains the test-support target, and it depends only on what it may import")
    func testSupportIsNotALibrary() throws {
        let manifest = try Self.manifest()
        let products = manifest.split(separator: "\n").filter { $0.contains(".library(") }
        #expect(products.count == Self.modules.count, "one library product per module: \(products)")
        #expect(!products.contains { $0.contains("TestSupport") })
        #expect(Self.modules.allSatisfy { !Self.allowedImports(of: $0).contains("TestSupport") })
        let support = try #require(
            Self.declaredTargets(in: manifest).first { $0.path == "Tests/TestSupport" },
            "TestSupport must be a plain .target with path \"Tests/TestSupport\"")
        let forbidden = Set(support.dependencies).subtracting(Self.testSupportAllowed)
        #expect(forbidden.isEmpty, "TestSupport depends on \(forbidden.sorted()) in Package.swift")
    }

    // MARK: The readers themselves

    @Test("the import-line reader understands every import form")
    func importForms() {
        #expect(Self.importedModule("import Foundation") == "Foundation")
        #expect(Self.importedModule("@_exported import ConfigDomain") == "ConfigDomain")
        #expect(Self.importedModule("public import struct HTTPAdapter.HTTPFetcher") == "HTTPAdapter")
        #expect(Self.importedModule("    @testable import RemoteConfig") == "RemoteConfig")
        #expect(Self.importedModule("// import Nothing") == nil)
        #expect(Self.importedModule("let important = 1") == nil)
    }

    @Test("the manifest reader finds each target's path, dependencies and products")
    func manifestReader() {
        let manifest = """
            .target(name: "A", dependencies: ["ConfigDomain", "ConfigPorts"], path: "Modules/A", swiftSettings: s),
            .target(
                name: "B", dependencies: [.product(name: "Atomics", package: "swift-atomics")], path: "Modules/B",
                exclude: ["FORMAT.md"]),
            .executableTarget(name: "Tool", dependencies: ["A", "B"], path: "Tools/Tool"),
            .target(name: "C", path: "Modules/C"),
            """
        let targets = Self.declaredTargets(in: manifest)
        #expect(targets.map(\.path) == ["Modules/A", "Modules/B", "Modules/C"])
        #expect(targets.map(\.dependencies) == [["ConfigDomain", "ConfigPorts"], ["Atomics", "swift-atomics"], []])
        #expect(targets.map(\.dependsOnAProduct) == [false, true, false])
    }

    @Test("an adapter may import the core modules and the shared libraries, and nothing else of the package")
    func adapterRule() {
        let allowed = Self.allowedImports(of: "SomeFutureAdapter")
        #expect(allowed.isSuperset(of: Self.core.union(Self.sharedLibraries).union(["Foundation", "SomeFutureAdapter"])))
        #expect(allowed.isDisjoint(with: ["RemoteConfig", "TestDoubles", "HTTPAdapter", "Atomics", "TestSupport"]))
    }
}
