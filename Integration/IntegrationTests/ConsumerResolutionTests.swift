import Foundation
import Testing

/// What an app that depends on this package resolves: `swift package show-dependencies` in a consumer
/// package made on the spot, depending on this checkout by path (a real child process; resolution only).
@Suite("A consumer's resolution")
struct ConsumerResolutionTests {
    /// This checkout: two folders above this file.
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The packages a consumer of `products`, with `traits` enabled on this package, resolves (their identities).
    private func resolution(products: [String], traits: [String] = []) async throws -> [String] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("consumer-\(UUID().uuidString)")
        defer {
            try? FileManager.default.removeItem(at: folder)
            SwiftPMLockFiles.remove(under: folder)
        }
        let sources = folder.appendingPathComponent("Sources/App")
        try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
        try Data("print(\"app\")\n".utf8).write(to: sources.appendingPathComponent("main.swift"))
        let traitList = traits.map { "\"\($0)\"" }.joined(separator: ", ")
        let manifest = """
            // swift-tools-version: 6.1
            import PackageDescription
            let package = Package(
                name: "Consumer",
                dependencies: [.package(path: "\(Self.root.path)", traits: [\(traitList)])],
                targets: [
                    .executableTarget(
                        name: "App",
                        dependencies: [\(products.map { ".product(name: \"\($0)\", package: \"\(Self.root.lastPathComponent)\")" }.joined(separator: ", "))])
                ])
            """
        try Data(manifest.utf8).write(to: folder.appendingPathComponent("Package.swift"))
        var environment = ProcessInfo.processInfo.environment
        environment["RC_DEVELOPMENT"] = nil  // an app's build never sets it
        environment["PWD"] = folder.path  // and starts in the app's folder, as a shell's `cd` there sets it
        let outcome = try await ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/env"), arguments: ["swift", "package", "show-dependencies", "--format", "flatlist"],
            environment: environment, currentDirectory: folder, deadline: 300)
        #expect(outcome.status == 0, "swift package show-dependencies failed: \(outcome.standardError)")
        let packages = outcome.standardOutput.split(separator: "\n").map(String.init).filter { !$0.isEmpty }
        print("a consumer of \(products.joined(separator: ", ")) with traits [\(traitList)] resolves: \(packages)")
        return packages.filter { $0 != Self.root.lastPathComponent.lowercased() }
    }

    @Test("an app of the core and the HTTP, file-cache and environment adapters resolves no other package")
    func coreResolvesNothing() async throws {
        #expect(try await resolution(products: ["RemoteConfig", "HTTPAdapter", "FileCacheAdapter", "EnvAdapter"]).isEmpty)
    }

    @Test("an app that enables the SigningAdapter trait resolves swift-crypto and what it needs, and no tool's package")
    func signingResolvesCrypto() async throws {
        let packages = try await resolution(products: ["RemoteConfig", "SigningAdapter"], traits: ["SigningAdapter"])
        #expect(packages.contains("swift-crypto"))
        #expect(!packages.contains("flyingfox") && !packages.contains("swift-argument-parser"), "\(packages)")
        #expect(!packages.contains("swift-log") && !packages.contains("swift-configuration"), "\(packages)")
    }

    #if compiler(>=6.2)
        @Test("an app that enables the server traits resolves swift-service-context and swift-service-lifecycle, not Hummingbird")
        func serverTraitsResolveTheirPackages() async throws {
            let packages = try await resolution(
                products: ["RemoteConfig", "ServiceContextAdapter", "ServiceLifecycleAdapter"],
                traits: ["ServiceContextAdapter", "ServiceLifecycleAdapter"])
            #expect(packages.contains("swift-service-context") && packages.contains("swift-service-lifecycle"), "\(packages)")
            #expect(!packages.contains("hummingbird") && !packages.contains("swift-nio"), "the example's packages: \(packages)")
            #expect(!packages.contains("flyingfox") && !packages.contains("swift-crypto"), "\(packages)")
        }
    #endif
}
