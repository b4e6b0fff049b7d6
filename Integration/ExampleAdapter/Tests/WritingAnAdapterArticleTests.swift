// Keeps the DocC article "Writing and contract-testing your own adapter"
// (Modules/RemoteConfig/RemoteConfig.docc/WritingAnAdapter.md) true to the code it walks through:
// every Swift block of the article must appear in the file that compiles it, and the sample
// report must be what the contract reports for the example adapter.
import Foundation
import Testing

@Suite("WritingAnAdapter article")
struct WritingAnAdapterArticleTests {
    /// The repository's root, four levels above this file.
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The file that compiles each Swift block of the article, in the article's order.
    private static let mirrors = [
        "Modules/ConfigPorts/ConfigFetcher.swift",
        "Integration/ExampleAdapter/Sources/DirectoryFetcher.swift",
        "Integration/ExampleAdapter/Sources/DirectoryFetcher.swift",
        "Integration/ExampleAdapter/Sources/DirectoryFetcher.swift",
        "Integration/ExampleAdapter/Tests/ConfigDirectory.swift",
        "Integration/ExampleAdapter/Tests/DirectoryFetcherContractTests.swift",
        "Integration/ExampleAdapter/Tests/DirectoryFetcherContractTests.swift",
        "Integration/ExampleAdapter/Tests/DirectoryFetcherClientTests.swift",
        "Tests/FileCacheAdapterTests/FileSnapshotCacheContractTests.swift",
        "Tests/EnvAdapterTests/EnvOverrideSourcesContractTests.swift",
    ]

    /// The article's code blocks in `language`, in order.
    private static func blocks(_ language: String) throws -> [String] {
        let article = root.appendingPathComponent("Modules/RemoteConfig/RemoteConfig.docc/WritingAnAdapter.md")
        let markdown = try String(contentsOf: article, encoding: .utf8)
        return markdown.components(separatedBy: "```\(language)\n").dropFirst().compactMap {
            $0.components(separatedBy: "```").first
        }
    }

    @Test func everySwiftBlockOfTheArticleIsInTheFileThatCompilesIt() throws {
        let blocks = try Self.blocks("swift")
        #expect(blocks.count == Self.mirrors.count, "add the file of each new Swift block to `mirrors`")
        for (index, (block, path)) in zip(blocks, Self.mirrors).enumerated() {
            let source = try String(contentsOf: Self.root.appendingPathComponent(path), encoding: .utf8)
            if let problem = Self.mismatch(block: lines(block), in: lines(source)) {
                Issue.record("Swift block \(index + 1) of WritingAnAdapter.md differs from \(path): \(problem)")
            }
        }
    }

    @Test func theSampleReportIsWhatTheContractReportsForTheExample() async throws {
        let directory = ConfigDirectory()
        defer { directory.remove() }
        let report = await directoryFetcherContract(directory).run()
        let sample = try Self.blocks("text").first { $0.hasPrefix("FetcherContract on DirectoryFetcher") }
        #expect(sample?.trimmingCharacters(in: .newlines) == report.description)
    }

    /// `nil` when the block's lines follow each other in the source, where the source may also
    /// hold blank lines and `///` documentation the block leaves out; otherwise the first line not found.
    private static func mismatch(block: [String], in source: [String]) -> String? {
        let wanted = block.filter { !$0.isEmpty }
        guard let first = wanted.first else { return "the block is empty" }
        var furthest = (count: 0, line: first)
        for start in source.indices where source[start] == first {
            var position = start
            var matched = 0
            for line in wanted {
                while position < source.endIndex, source[position] != line,
                    source[position].isEmpty || source[position].hasPrefix("///")
                {
                    position += 1
                }
                guard position < source.endIndex, source[position] == line else { break }
                matched += 1
                position += 1
            }
            if matched == wanted.count { return nil }
            if matched >= furthest.count { furthest = (matched, wanted[matched]) }
        }
        return "this line is not where the block puts it: \(furthest.line)"
    }
}

/// The lines of `text`, without leading and trailing spaces.
private func lines(_ text: String) -> [String] {
    text.components(separatedBy: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
}
