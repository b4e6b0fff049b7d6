import Foundation
import Testing

/// "Flags in a server" shows only code that compiles: each of its Swift blocks is found, line by line,
/// in the compiled example server or in `ServerArticleSnippets.swift`.
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

    @Test("every Swift block of the article is in compiled code")
    func blocksCompile() throws {
        let article = try String(
            contentsOf: Self.root.appendingPathComponent("Modules/RemoteConfig/RemoteConfig.docc/FlagsInAServer.md"), encoding: .utf8)
        let example = Self.root.appendingPathComponent("Integration/Examples/HummingbirdFlags")
        var sources = try FileManager.default.contentsOfDirectory(at: example, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "swift" }
        sources.append(Self.root.appendingPathComponent("Tests/RemoteConfigTests/ServerArticleSnippets.swift"))
        let compiled = try sources.map { try String(contentsOf: $0, encoding: .utf8) }.joined(separator: "\n")
            .components(separatedBy: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        let blocks = Self.blocks(in: article)
        #expect(blocks.count >= 5)
        for block in blocks {
            let found = compiled.indices.contains { start in
                start + block.count <= compiled.count && Array(compiled[start..<(start + block.count)]) == block
            }
            #expect(found, "not in compiled code:\n\(block.joined(separator: "\n"))")
        }
    }
}
