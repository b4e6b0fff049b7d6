import ConfigDomain
import ConfigPorts
import EnvAdapter
import Foundation
import Testing

@Suite("DotEnvOverrideSource")
struct DotEnvOverrideSourceTests {
    /// Keys named so that `A` overrides `a`, `B` overrides `b`, and so on.
    private let keys = ["a", "b", "c", "d", "new_checkout", "greeting"].map(stringKey)

    private func parse(_ contents: String, prefix: String = "") -> OverrideSnapshot {
        DotEnvOverrideSource(contents: contents, prefix: prefix).overrides(for: keys)
    }

    @Test(
        "reads one value per line",
        arguments: [
            ("A=1", "1"),
            ("A = 1", "1"),
            ("A\t=\t1", "1"),
            ("  A=1  ", "1"),
            ("export A=1", "1"),
            ("export\tA = 1", "1"),
            ("A=hello world", "hello world"),
            ("A=a=b=c", "a=b=c"),
            ("A=#fff", "#fff"),
            ("A=x#y", "x#y"),
            ("A=value # a comment", "value"),
            ("A=value\t# a comment", "value"),
            ("A=", ""),
            ("A= ", ""),
            ("A=''", ""),
            ("A=\"\"", ""),
            ("A= # only a comment", ""),
            ("A='single # not a comment'", "single # not a comment"),
            ("A='literal \\n \\t \"kept\"'", "literal \\n \\t \"kept\""),
            ("A='quoted'  # comment", "quoted"),
            ("A=\"double # not a comment\"", "double # not a comment"),
            ("A=\"line\\nbreak\"", "line\nbreak"),
            ("A=\"tab\\there\"", "tab\there"),
            ("A=\"say \\\"hi\\\"\"", "say \"hi\""),
            ("A=\"back\\\\slash\"", "back\\slash"),
            ("A=\"unknown \\x escape\"", "unknown \\x escape"),
            ("A=\"  spaces kept  \"", "  spaces kept  "),
            ("A=\"quoted\" # comment", "quoted"),
            ("A=it's", "it's"),
            ("A={\"json\": [1, 2]}", "{\"json\": [1, 2]}"),
            ("A=héllo wörld ✓", "héllo wörld ✓"),
        ])
    func values(line: String, expected: String) {
        let snapshot = parse(line)
        #expect(text(of: "a", in: snapshot) == expected)
        #expect(snapshot.problems.isEmpty)
    }

    @Test("blank lines and full-line comments are skipped, and line numbers count them")
    func commentsAndBlankLines() {
        let snapshot = parse(
            """
            # a comment
              # an indented comment

            B=2
            \t
            C=3
            """)
        #expect(snapshot.values["b"] == OverrideValue(.text("2"), origin: ".env:4"))
        #expect(snapshot.values["c"] == OverrideValue(.text("3"), origin: ".env:6"))
        #expect(snapshot.problems.isEmpty)
    }

    @Test("CRLF and CR line endings are line breaks, not part of values")
    func lineEndings() {
        for contents in ["A=1\r\nB=two words\r\nC='3'\r\n", "A=1\rB=two words\rC='3'\r", "A=1\nB=two words\r\nC='3'\r"] {
            let snapshot = parse(contents)
            #expect(text(of: "a", in: snapshot) == "1")
            #expect(text(of: "b", in: snapshot) == "two words")
            #expect(snapshot.values["c"] == OverrideValue(.text("3"), origin: ".env:3"))
            #expect(snapshot.problems.isEmpty)
        }
    }

    @Test("a leading UTF-8 byte-order mark is ignored")
    func byteOrderMark() {
        let snapshot = parse("\u{FEFF}A=1\nB=2")
        #expect(snapshot.values["a"] == OverrideValue(.text("1"), origin: ".env:1"))
        #expect(text(of: "b", in: snapshot) == "2")
        #expect(snapshot.problems.isEmpty)
    }

    @Test("a byte-order mark read from a file is ignored too")
    func byteOrderMarkInFile() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.url.appendingPathComponent(".env")
        try Data([0xEF, 0xBB, 0xBF] + Array("A=1\r\n".utf8)).write(to: url)
        let snapshot = DotEnvOverrideSource(fileURL: url).overrides(for: keys)
        #expect(text(of: "a", in: snapshot) == "1")
        #expect(snapshot.problems.isEmpty)
    }

    @Test("a name set twice is a problem naming both lines, and the last one wins")
    func duplicates() {
        let snapshot = parse("A=first\nB=2\nA=second\nexport A=third")
        #expect(snapshot.values["a"] == OverrideValue(.text("third"), origin: ".env:4"))
        #expect(
            snapshot.problems == [
                ".env:3: A is set again; line 3 wins over line 1",
                ".env:4: A is set again; line 4 wins over line 3",
            ])
    }

    @Test(
        "a malformed line is reported with its number and skipped; the lines around it are read",
        arguments: [
            ("just some text", "expected NAME=VALUE but the line has no '='"),
            ("export", "expected NAME=VALUE but the line has no '='"),
            ("=value", "expected NAME=VALUE but nothing comes before '='"),
            ("   = value", "expected NAME=VALUE but nothing comes before '='"),
            ("1A=x", "the text before '=' is not a variable name"),
            ("MY KEY=x", "the text before '=' is not a variable name"),
            ("KÉY=x", "the text before '=' is not a variable name"),
            ("D='open", "the value of D has no closing single quote"),
            ("D=\"open", "the value of D has no closing double quote"),
            ("D=\"escaped end\\\"", "the value of D has no closing double quote"),
            ("D='x' trailing", "the value of D has text after its closing single quote"),
            ("D=\"x\"trailing", "the value of D has text after its closing double quote"),
        ])
    func malformedLine(line: String, reason: String) throws {
        let snapshot = parse("A=1\n\(line)\nB=2")
        #expect(text(of: "a", in: snapshot) == "1")
        #expect(text(of: "b", in: snapshot) == "2")
        #expect(snapshot.values["d"] == nil)
        let problem = try #require(snapshot.problems.first)
        #expect(snapshot.problems.count == 1)
        #expect(problem.hasPrefix(".env:2: \(reason)"))
        #expect(problem.hasSuffix("; line skipped"))
    }

    @Test("problems about malformed lines never echo the value")
    func malformedLinesDoNotEchoValues() {
        let snapshot = parse("sk_live_abcdef\nD=\"sk_live_ghijkl\nB='sk_live_mnopqr' oops\ndGVz dA==")
        #expect(snapshot.problems.count == 4)
        for problem in snapshot.problems {
            #expect(!problem.contains("sk_live") && !problem.contains("dGVz"), "\(problem)")
        }
    }

    @Test("the origin names the text and the line")
    func customOrigin() {
        let snapshot = DotEnvOverrideSource(contents: "\nA=1", origin: "ci.env").overrides(for: keys)
        #expect(snapshot.values["a"]?.origin == "ci.env:2")
        #expect(DotEnvOverrideSource(contents: "").name == ".env file")
    }

    @Test("with a prefix, names map like environment variables and unknown prefixed names are problems")
    func prefix() {
        let snapshot = parse(
            """
            MYAPP_NEW_CHECKOUT=true
            MYAPP_NEW_CHEKOUT=false
            MYAPP_LOG_LEVEL=debug
            DATABASE_URL=postgres://db
            GREETING=not mine
            """, prefix: "MYAPP_")
        #expect(snapshot.values == ["new_checkout": OverrideValue(.text("true"), origin: ".env:1")])
        #expect(
            snapshot.problems == [
                ".env:2: MYAPP_NEW_CHEKOUT is set but overrides no registered key; did you mean MYAPP_NEW_CHECKOUT (key \"new_checkout\")?",
                ".env:3: MYAPP_LOG_LEVEL is set but overrides no registered key",
            ])
    }

    @Test("without a prefix, other tools' variables are ignored and only close names are reported")
    func noPrefix() {
        let snapshot = parse("DATABASE_URL=postgres://db\nNEW_CHECKOUTT=true\nGREETING=hi")
        #expect(snapshot.values.keys.sorted() == ["greeting"])
        #expect(
            snapshot.problems == [
                ".env:2: NEW_CHECKOUTT is set but overrides no registered key; did you mean NEW_CHECKOUT (key \"new_checkout\")?"
            ])
    }

    @Test("two registered keys that map to one name are reported, and the name overrides neither")
    func collision() {
        let snapshot = DotEnvOverrideSource(contents: "NEW_CHECKOUT=true")
            .overrides(for: [stringKey("new_checkout"), stringKey("newCheckout")])
        #expect(snapshot.values.isEmpty)
        #expect(snapshot.problems.count == 1)
        #expect(snapshot.problems.first?.contains("both map to NEW_CHECKOUT") == true)
    }

    @Test("reports only registered keys")
    func onlyRegisteredKeys() {
        let snapshot = DotEnvOverrideSource(contents: "A=1\nB=2\nC=3").overrides(for: [stringKey("b")])
        #expect(snapshot.values.keys.sorted() == ["b"])
    }

    @Test("a file is read with its path as origin, and read again on every call")
    func file() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.url.appendingPathComponent(".env")
        try Data("# test\nexport A=from file\n".utf8).write(to: url)
        let source = DotEnvOverrideSource(fileURL: url)
        #expect(source.origin == url.path)
        let first = source.overrides(for: keys)
        #expect(first.values["a"] == OverrideValue(.text("from file"), origin: "\(url.path):2"))
        #expect(first.problems.isEmpty)

        try Data("A=changed\n".utf8).write(to: url)
        let second = source.overrides(for: keys)
        #expect(second.values["a"] == OverrideValue(.text("changed"), origin: "\(url.path):1"))
    }

    @Test("a missing file is a problem, not a crash")
    func missingFile() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.url.appendingPathComponent("absent.env")
        let snapshot = DotEnvOverrideSource(fileURL: url).overrides(for: keys)
        #expect(snapshot.values.isEmpty)
        #expect(snapshot.problems == ["no .env file at \(url.path); no overrides read from it"])
    }

    @Test("a directory in place of the file is a problem")
    func directoryInsteadOfFile() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let snapshot = DotEnvOverrideSource(fileURL: directory.url).overrides(for: keys)
        #expect(snapshot.values.isEmpty)
        #expect(snapshot.problems == ["\(directory.url.path) is a directory, not a .env file; no overrides read from it"])
    }

    @Test("a file that is not UTF-8 is a problem")
    func notUTF8() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.url.appendingPathComponent(".env")
        try Data([0x41, 0x3D, 0xFF, 0xFE, 0x0A]).write(to: url)
        let snapshot = DotEnvOverrideSource(fileURL: url).overrides(for: keys)
        #expect(snapshot.values.isEmpty)
        #expect(snapshot.problems == ["\(url.path) is not UTF-8 text; no overrides read from it"])
    }
}

/// A fresh directory under the system's temporary directory, removed by ``remove()``.
struct TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("EnvAdapterTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}
