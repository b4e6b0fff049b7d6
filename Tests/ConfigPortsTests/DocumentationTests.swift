import Foundation
import Testing

/// The documentation's reach: every public declaration has a `///` summary, and `make docs` builds every module.
@Suite("Documentation")
struct DocumentationTests {
    /// `public` or `open` declarations under Modules/ with no `///` line right above them (attributes between are
    /// allowed), as `file:line: declaration`.
    static func undocumentedDeclarations() throws -> [String] {
        let folder = DependencyRuleTests.root.appendingPathComponent("Modules")
        let enumerator = try #require(FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil))
        var found: [String] = []
        for case let file as URL in enumerator where file.pathExtension == "swift" {
            let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
                .map { $0.trimmingCharacters(in: .whitespaces) }
            for (index, line) in lines.enumerated() where isPublicDeclaration(line) && !isDocumented(index, in: lines) {
                found.append("\(file.lastPathComponent):\(index + 1): \(line)")
            }
        }
        return found
    }

    /// Whether the declaration at `index` of `lines` (trimmed) has a `///` line above it, past its attributes.
    static func isDocumented(_ index: Int, in lines: [String]) -> Bool {
        var above = index - 1
        while above >= 0 {
            if lines[above].hasPrefix("@") {
                above -= 1
            } else if lines[above].hasPrefix(")") {
                // The end of an attribute written over several lines: go to its `@`.
                while above >= 0, !lines[above].hasPrefix("@") { above -= 1 }
                above -= 1
            } else {
                break
            }
        }
        return above >= 0 && lines[above].hasPrefix("///")
    }

    /// Whether `line` declares something public (not an import, not an extension, which has no page of its own).
    static func isPublicDeclaration(_ line: String) -> Bool {
        var words = line.split(separator: " ").map(String.init)
        while let first = words.first, first.hasPrefix("@") { words.removeFirst() }
        guard let first = words.first, first == "public" || first == "open" else { return false }
        return words.count > 1 && !["import", "extension"].contains(words[1])
    }

    @Test("every public declaration under Modules/ has a /// summary")
    func publicDeclarationsAreDocumented() throws {
        let undocumented = try Self.undocumentedDeclarations()
        #expect(undocumented.isEmpty, "no /// summary: \(undocumented.joined(separator: "; "))")
        #expect(Self.isPublicDeclaration("@inlinable public func f()"))
        #expect(!Self.isPublicDeclaration("public import Foundation"))
        #expect(!Self.isPublicDeclaration("let public = 1"))
        let sample = [
            "/// A summary.", "@available(", "*, unavailable, message: \"…\"", ")", "public func f()", "}", "public var g: Int",
        ]
        #expect(Self.isDocumented(4, in: sample))
        #expect(!Self.isDocumented(6, in: sample))
    }

    @Test("make docs documents every library module")
    func docsCoverEveryModule() throws {
        let makefile = try String(contentsOf: DependencyRuleTests.root.appendingPathComponent("Makefile"), encoding: .utf8)
        let start = try #require(makefile.range(of: "DOC_TARGETS :="), "the Makefile has no DOC_TARGETS").upperBound
        let end = makefile[start...].range(of: "\ndocs:")?.lowerBound ?? makefile.endIndex
        let listed = Set(makefile[start..<end].split(whereSeparator: { " \t\n\\".contains($0) }).map(String.init))
        let missing = Set(DependencyRuleTests.modules).subtracting(listed)
        #expect(missing.isEmpty, "make docs leaves out \(missing.sorted())")
        #expect(makefile.contains("$(addprefix --target ,$(DOC_TARGETS))"))
    }
}
