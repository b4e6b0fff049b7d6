import Foundation
import Testing

/// "Flags in a server" shows only code that compiles: each of its Swift blocks is found, line by line,
/// in the compiled example server or in `ServerArticleSnippets.swift`; its package manifest names only
/// what this package and the example server really declare.
@Suite("The article Flags in a server")
struct ServerArticleTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The article's Swift blocks, each as its lines without leading and trailing spaces.
    static func blocks(in text: String) -> [[String]] {
        var blocks: [[String]] = []
        var current: [String]?
        for line in text.components(separatedBy: "\n") {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if current == nil, trimmed == "```swift" {
                current = []
            } else if current != nil, trimmed == "```" {
                blocks.append(current ?? [])
                current = nil
            } else if current != nil, !trimmed.isEmpty {
                current?.append(trimmed)
            }
        }
        return blocks
    }

    /// Whether `block` is a package manifest (`Package.swift`), which no target compiles.
    static func isManifest(_ block: [String]) -> Bool { block.contains("let package = Package(") }

    /// The article's text.
    static func article() throws -> String {
        try String(
            contentsOf: root.appendingPathComponent("Modules/RemoteConfig/RemoteConfig.docc/FlagsInAServer.md"), encoding: .utf8)
    }

    /// Every quoted text in `line` that follows `label` (`name: "` finds each product's name).
    static func quoted(after label: String, in line: String) -> [String] {
        line.components(separatedBy: label).dropFirst().compactMap { $0.components(separatedBy: "\"").first }
    }

    @Test("every Swift block of the article is in compiled code")
    func blocksCompile() throws {
        let example = Self.root.appendingPathComponent("Integration/Examples/HummingbirdFlags")
        var sources = try FileManager.default.contentsOfDirectory(at: example, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "swift" }
        sources.append(Self.root.appendingPathComponent("Tests/RemoteConfigTests/ServerArticleSnippets.swift"))
        let compiled = try sources.map { try String(contentsOf: $0, encoding: .utf8) }.joined(separator: "\n")
            .components(separatedBy: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        let blocks = Self.blocks(in: try Self.article()).filter { !Self.isManifest($0) }
        #expect(blocks.count >= 5)
        for block in blocks {
            let found = compiled.indices.contains { start in
                start + block.count <= compiled.count && Array(compiled[start..<(start + block.count)]) == block
            }
            #expect(found, "not in compiled code:\n\(block.joined(separator: "\n"))")
        }
    }

    @Test("the manifest names this package's products and traits, and the packages and versions the example server uses")
    func manifestIsTrue() throws {
        let manifests = Self.blocks(in: try Self.article()).filter(Self.isManifest)
        try #require(manifests.count == 1, "the article shows one Package.swift")
        let manifest = manifests[0]
        let package = try String(contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let ownProducts = Set(package.components(separatedBy: "\n").flatMap { Self.quoted(after: ".library(name: \"", in: $0) })
        let start = try #require(package.range(of: "name: \"HummingbirdFlagsExample\""), "no example server target")
        let end = try #require(package[start.upperBound...].range(of: "path: \"Integration/Examples/HummingbirdFlags\""))
        let example = package[start.upperBound..<end.lowerBound]
        var ownUsed: Set<String> = []
        var otherUsed: [(product: String, package: String)] = []
        for line in manifest where line.hasPrefix(".product(") {
            let name = try #require(Self.quoted(after: "name: \"", in: line).first)
            let from = try #require(Self.quoted(after: "package: \"", in: line).first)
            if from == "remote-config" {
                #expect(ownProducts.contains(name), "\(name) is not a product of this package")
                ownUsed.insert(name)
            } else {
                otherUsed.append((name, from))
            }
        }
        // What the example server's target depends on, it names in the manifest too.
        for dependency in ["RemoteConfig", "HTTPAdapter", "TargetingFormat", "ServiceContextAdapter", "ServiceLifecycleAdapter"] {
            #expect(example.contains("\"\(dependency)\""), "the example server no longer depends on \(dependency)")
            #expect(ownUsed.contains(dependency), "the manifest leaves out \(dependency)")
        }
        for (product, other) in otherUsed {
            let declared = "development(\"\(product)\", \"\(other)\")"
            #expect(example.contains(declared), "the example server does not use \(product) of \(other)")
        }
        // Each package it depends on is the one this package declares, at the same version.
        for line in manifest where line.hasPrefix(".package(url: ") {
            let url = try #require(Self.quoted(after: "url: \"", in: line).first)
            let version = try #require(Self.quoted(after: "from: \"", in: line).first)
            let declared = ".package(url: \"\(url)\", from: \"\(version)\")"
            #expect(package.contains(declared), "this package does not declare \(url) from \(version)")
            #expect(otherUsed.contains { url.hasSuffix("/" + $0.package) }, "no product of \(url) is used")
        }
        // The traits turned on are the ecosystem adapters the manifest uses.
        let dependency = try #require(manifest.first { $0.hasPrefix(".package(path: \"../remote-config\"") })
        let list = dependency.components(separatedBy: "traits: [").last?.components(separatedBy: "]").first ?? ""
        let traits = Set(list.components(separatedBy: ",").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " \"")) })
        #expect(traits == ["ServiceContextAdapter", "ServiceLifecycleAdapter"])
        for trait in traits { #expect(package.contains("\"\(trait)\""), "\(trait) is not a trait of this package") }
    }
}
