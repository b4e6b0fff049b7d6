import ConfigDomain
import ConfigPorts
import Foundation
import RemoteConfig
import TestDoubles
import Testing

// The code of the articles "Writing a payload format" and "Choosing a read and a watch"
// (Modules/RemoteConfig/RemoteConfig.docc): compiled and run here, and found in the articles line by
// line by `ArticleSnippetsTests`.

enum Flags {
    static let newCheckout = ConfigKey("new_checkout", default: false)
    static let maxRetries = ConfigKey("max_retries", default: 3, rules: [.range(0...10)])
}

enum Layout {
    static let columns = ConfigKey("layout.columns", default: 2)
    static let rows = ConfigKey("layout.rows", default: 3)
}

// MARK: Writing a payload format

/// The article's sample of the lines format.
let linesSample = """
    # checkout
    new_checkout = true
    max_retries = 5
    banner = {"title": "Hello", "color": "blue"}
    """

struct KeyValueLinesFormat: PayloadFormat {
    let name = "key-value-lines"
    let parser = JSONParser()

    func decode(_ bytes: Data) throws(PayloadError) -> DecodedPayload {
        guard let text = String(data: bytes, encoding: .utf8) else {
            throw PayloadError(format: name, reason: "the payload is not UTF-8 text", offset: 0)
        }
        var values: [String: ConfigValue] = [:]
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = line.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            guard let equals = line.firstIndex(of: "=") else {
                throw PayloadError(format: name, reason: "expected name = value", path: "line \(number + 1)")
            }
            let key = line[..<equals].trimmingCharacters(in: .whitespaces)
            let value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            do throws(JSONParseError) {
                values[key] = try parser.parse(value)
            } catch {
                throw PayloadError(format: name, reason: "the value is not JSON: \(error)", path: "line \(number + 1)")
            }
        }
        return DecodedPayload(values: values)
    }
}

func makeLinesClient(fetcher: any ConfigFetcher) throws -> RemoteConfigClient {
    let client = try RemoteConfigClient.builder(fetcher: fetcher)
        .payloadFormat(KeyValueLinesFormat())
        .register(Flags.newCheckout, Flags.maxRetries)
        .build()
    return client
}

/// The article's sample of Acme's flags.
let acmeSample = """
    {
      "new_checkout": {
        "default": false,
        "rules": [
          { "id": "staff", "users": ["u1", "u2"], "value": true, "variant": "on" },
          { "id": "germany", "country": "DE", "value": true, "variant": "on" }
        ]
      },
      "banner": { "default": "Hello", "metadata": { "owner": "growth" } },
      "old_banner": { "default": "Hi", "enabled": false }
    }
    """

struct AcmeRule: Sendable {
    let id: String
    let users: Set<String>?
    let country: String?
    let value: ConfigValue
    let variant: String?

    var matchesEveryone: Bool { users == nil && country == nil }
}

struct AcmeFlagRules: TargetingRules {
    let key: String
    let rules: [AcmeRule]
    let enabled: Bool

    func evaluate(in context: EvaluationContext, explaining: Bool) -> TargetingDecision {
        guard enabled else { return TargetingDecision(value: nil, reason: .disabled) }
        var read: [String] = []
        var unmatched: [UnmatchedRule] = []
        var problems: [RuleProblem] = []
        // The provenance a person reads in details: recorded only when asked for.
        func note(_ attribute: String) {
            if explaining, !read.contains(attribute) { read.append(attribute) }
        }
        func miss(_ rule: AcmeRule, _ reason: UnmatchedRule.Reason) {
            if explaining, unmatched.count < TargetingDecision.unmatchedLimit {
                unmatched.append(UnmatchedRule(ruleID: rule.id, reason: reason))
            }
        }
        for rule in rules {
            if let users = rule.users {
                note(EvaluationContext.targetingKeyAttribute)
                guard let user = context.targetingKey else {
                    return .failure(.targetingKeyMissing, "rule \"\(rule.id)\" lists users", attributesRead: read)
                }
                guard users.contains(user) else {
                    miss(rule, .conditionFailed)
                    continue
                }
            }
            if let country = rule.country {
                note("country")
                switch context.attribute(named: "country") {
                case .string(let value)? where value == country:
                    break
                case let found? where found.stringValue == nil:
                    problems.append(
                        RuleProblem(
                            key: key, ruleID: rule.id,
                            kind: .attributeType(attribute: "country", expected: "string", found: found.kind)))
                    miss(rule, .problem)
                    continue
                default:
                    miss(rule, .conditionFailed)
                    continue
                }
            }
            let match = TargetingMatch(ruleID: rule.id, kind: .rule, variant: rule.variant)
            return TargetingDecision(
                value: rule.value, match: match, attributesRead: read, unmatched: unmatched, problems: problems)
        }
        return .noMatch(attributesRead: read, unmatched: unmatched, problems: problems)
    }

    func lint() -> [RuleProblem] {
        guard let first = rules.firstIndex(where: \.matchesEveryone) else { return [] }
        return rules[(first + 1)...].map { rule in
            RuleProblem(key: key, ruleID: rule.id, kind: .unreachable(shadowedBy: rules[first].id))
        }
    }
}

struct AcmeFlagsFormat: PayloadFormat {
    let name = "acme-flags"
    let parser = JSONParser()

    func decode(_ bytes: Data) throws(PayloadError) -> DecodedPayload {
        let flags = try parser.parseObject(bytes, format: name, requirement: "the top level must be an object of flags")
        var values: [String: ConfigValue] = [:]
        var rules: [String: any TargetingRules] = [:]
        var problems: [String: [RuleProblem]] = [:]
        var metadata: [String: [String: ConfigValue]] = [:]
        for (key, flag) in flags {
            do throws(RuleProblem) {
                let (defaultValue, parsed, enabled) = try Self.flag(flag, key: key)
                if enabled { values[key] = defaultValue }
                if !parsed.isEmpty || !enabled { rules[key] = AcmeFlagRules(key: key, rules: parsed, enabled: enabled) }
                if let stated = flag["metadata"]?.objectValue { metadata[key] = stated }
            } catch {
                problems[key] = [error]
            }
        }
        return DecodedPayload(values: values, rules: rules, ruleProblems: problems, flagMetadata: metadata)
    }

    /// A flag's default, rules and state, or the problem that rejects it.
    static func flag(_ flag: ConfigValue, key: String) throws(RuleProblem) -> (ConfigValue?, [AcmeRule], Bool) {
        func problem(_ why: String, at path: String) -> RuleProblem {
            RuleProblem(key: key, path: path, kind: .unparsable(why))
        }
        guard let members = flag.objectValue else { throw problem("a flag is an object", at: key) }
        var rules: [AcmeRule] = []
        for (index, rule) in (members["rules"]?.arrayValue ?? []).enumerated() {
            let path = "\(key).rules[\(index)]"
            guard let value = rule["value"] else { throw problem("a rule needs a \"value\"", at: path) }
            var users: Set<String>?
            if let list = rule["users"] {
                guard let names = list.arrayValue?.compactMap(\.stringValue), names.count == list.arrayValue?.count else {
                    throw problem("\"users\" is an array of strings", at: path + ".users")
                }
                users = Set(names)
            }
            rules.append(
                AcmeRule(
                    id: rule["id"]?.stringValue ?? "rules[\(index)]", users: users, country: rule["country"]?.stringValue,
                    value: value, variant: rule["variant"]?.stringValue))
        }
        return (members["default"], rules, members["enabled"]?.boolValue ?? true)
    }
}

@Test func acmeFlagsDecideAsDocumented() throws {
    let payload = try AcmeFlagsFormat().decode(Data(acmeSample.utf8))

    let staff = payload.evaluate("new_checkout", in: EvaluationContext(targetingKey: "u1"))
    #expect(staff.value == true)
    #expect(staff.reason == .targetingMatch)
    #expect(staff.variant == "on")

    let french = payload.evaluate("new_checkout", in: EvaluationContext(targetingKey: "u9", attributes: ["country": "FR"]))
    #expect(french.value == false)
    #expect(french.reason == .defaultValue)

    let anonymous = payload.evaluate("new_checkout", in: .empty)
    #expect(anonymous.reason == .error)
    #expect(anonymous.errorCode == .targetingKeyMissing)

    #expect(payload.evaluate("old_banner").reason == .disabled)
    #expect(payload.evaluate("banner").reason == .staticValue)
    #expect(payload.evaluate("banner").flagMetadata["owner"] == "growth")
    #expect(payload.evaluate("nothing").errorCode == .flagNotFound)
}

/// The article's client over Acme's flags.
func acmeFlagsInAClient() async throws {
    let client = try RemoteConfigClient.builder(fetcher: InMemoryFetcher(json: acmeSample))
        .payloadFormat(AcmeFlagsFormat())
        .context(EvaluationContext(targetingKey: "u1"))
        .register(Flags.newCheckout)
        .build()
    try await client.refresh()
    #expect(client[Flags.newCheckout])
    #expect(client.details(Flags.newCheckout).reason == .targetingMatch)
    #expect(!client[Flags.newCheckout, for: EvaluationContext(targetingKey: "u9", attributes: ["country": "FR"])])
    await client.stop()
}

// MARK: Choosing a read and a watch

func checkoutTitle(client: RemoteConfigClient) -> String {
    client[Flags.newCheckout] ? "New checkout" : "Checkout"
}

func checkoutEnabled(client: RemoteConfigClient, userID: String, country: String) -> Bool {
    client[Flags.newCheckout, for: EvaluationContext(targetingKey: userID, attributes: ["country": .string(country)])]
}

func gridSize(client: RemoteConfigClient) -> (columns: Int, rows: Int) {
    let view = client.view()
    return (view[Layout.columns], view[Layout.rows])
}

func retriesAtStartUp(client: RemoteConfigClient) async -> Int {
    await client.fetch()[Flags.maxRetries]
}

func followCheckout(client: RemoteConfigClient, show: (Bool) -> Void) async {
    for await enabled in client.watch(Flags.newCheckout) {
        show(enabled)
    }
}

func logChanges(client: RemoteConfigClient) async {
    for await view in client.watch() {
        guard let update = view.update else { continue }  // the state build() made
        print("generation \(view.generation): \(update.changedKeys) after \(update.cause)")
    }
}

func logEvents(client: RemoteConfigClient) async {
    for await event in client.events() {
        print(event)
    }
}

func checkoutDiagnosis(client: RemoteConfigClient) -> String {
    let details = client.details(Flags.newCheckout)
    if let code = details.errorCode { return "\(code): \(details.errorMessage ?? "no message")" }
    return details.description  // the summary, then the context, the snapshot, the rules' decision and each rejection
}

/// Runs `body` with a client over `json`, refreshed once, and stops the client after.
func withArticleClient(
    _ json: String, _ body: (RemoteConfigClient, InMemoryFetcher) async throws -> Void
) async throws {
    let fetcher = InMemoryFetcher(json: json)
    let client = try RemoteConfigClient.builder(fetcher: fetcher)
        .payloadFormat(AcmeFlagsFormat())
        .register(Flags.newCheckout, Flags.maxRetries, Layout.columns, Layout.rows)
        .build()
    try await client.refresh()
    try await body(client, fetcher)
    await client.stop()
}

@Suite("The articles Writing a payload format, and Choosing a read and a watch")
struct ArticleSnippetsTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let articles = [
        "Modules/RemoteConfig/RemoteConfig.docc/WritingAPayloadFormat.md",
        "Modules/RemoteConfig/RemoteConfig.docc/ChoosingAReadAndAWatch.md",
    ]

    /// The article's code blocks in `language`, each as its lines without leading and trailing spaces, blank lines left out.
    static func blocks(_ language: String, in path: String) throws -> [[String]] {
        let text = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
        return text.components(separatedBy: "```\(language)\n").dropFirst().map { block in
            (block.components(separatedBy: "```").first ?? "").components(separatedBy: "\n")
                .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
    }

    /// A file's lines without leading and trailing spaces, blank lines left out (and `///` lines, with `dropDocumentation`).
    static func lines(of path: String, dropDocumentation: Bool = false) throws -> [String] {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8).components(separatedBy: "\n")
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !(dropDocumentation && $0.hasPrefix("///")) }
    }

    /// Whether `block` is a piece of a package manifest, which no target compiles.
    static func isManifest(_ block: [String]) -> Bool { block.first == ".target(" || block.contains("let package = Package(") }

    @Test("every Swift block of the two articles is in this file, or the port's own source, line by line")
    func blocksCompile() throws {
        let sources = [
            try Self.lines(of: "Tests/RemoteConfigTests/ArticleSnippetsTests.swift"),
            try Self.lines(of: "Modules/ConfigPorts/Formats/PayloadFormat.swift", dropDocumentation: true),
        ]
        for article in Self.articles {
            let blocks = try Self.blocks("swift", in: article).filter { !Self.isManifest($0) }
            #expect(blocks.count >= 6, "\(article) has fewer Swift blocks than expected")
            for block in blocks {
                let found = sources.contains { source in
                    source.indices.contains { start in
                        start + block.count <= source.count && Array(source[start..<(start + block.count)]) == block
                    }
                }
                #expect(found, "\(article): not in compiled code:\n\(block.joined(separator: "\n"))")
            }
        }
    }

    @Test("the manifest lines name products of this package")
    func manifestNamesProducts() throws {
        let manifest = try String(contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let blocks = try Self.blocks("swift", in: Self.articles[0]).filter(Self.isManifest)
        #expect(blocks.count == 1)
        for line in blocks.joined() where line.hasPrefix(".product(name: \"") {
            let name = line.components(separatedBy: "\"")[1]
            #expect(manifest.contains(".library(name: \"\(name)\""), "\(name) is not a product of this package")
            #expect(["ConfigDomain", "ConfigPorts", "Targeting"].contains(name), "a format depends on the core's ports only")
        }
    }

    @Test("the article's samples are the ones decoded here")
    func samplesAreTheArticles() throws {
        let json = try Self.blocks("json", in: Self.articles[0])
        #expect(json.first == acmeSample.components(separatedBy: "\n").map { $0.trimmingCharacters(in: .whitespaces) })
        let text = try Self.blocks("text", in: Self.articles[0])
        #expect(text.first == linesSample.components(separatedBy: "\n").map { $0.trimmingCharacters(in: .whitespaces) })
    }

    @Test("the values-only format reads the sample, refuses a line without =, and serves a client")
    func linesFormat() async throws {
        let payload = try KeyValueLinesFormat().decode(Data(linesSample.utf8))
        #expect(payload.values == ["new_checkout": true, "max_retries": 5, "banner": ["title": "Hello", "color": "blue"]])
        #expect(payload.rules.isEmpty)
        #expect(throws: PayloadError.self) { try KeyValueLinesFormat().decode(Data("max_retries 5".utf8)) }
        do throws(PayloadError) {
            _ = try KeyValueLinesFormat().decode(Data("a = 1\nb = nope".utf8))
            Issue.record("a value that is not JSON was read")
        } catch {
            #expect(error.path == "line 2")
        }
        let client = try makeLinesClient(fetcher: InMemoryFetcher(payload: Data(linesSample.utf8)))
        try await client.refresh()
        #expect(client[Flags.newCheckout])
        #expect(client[Flags.maxRetries] == 5)
        await client.stop()
    }

    @Test("the dialect reports a rule it cannot read, a context of the wrong type and an unreachable rule")
    func dialectProblems() throws {
        let payload = try AcmeFlagsFormat().decode(
            Data(
                #"""
                {"a": {"default": 1, "rules": [{"id": "no-value"}]},
                 "b": {"default": 1, "rules": [{"id": "all", "value": 2}, {"id": "later", "country": "DE", "value": 3}]},
                 "c": {"default": 1, "rules": [{"id": "de", "country": "DE", "value": 2}]},
                 "d": {"default": 1, "rules": [{"id": "bad", "users": [1], "value": 2}]}}
                """#.utf8))
        #expect(payload.ruleProblems["a"]?.first?.path == "a.rules[0]")
        #expect(payload.ruleProblems["d"]?.first?.path == "d.rules[0].users")
        #expect(payload.evaluate("a").errorCode == .parseError)
        #expect(payload.rules["b"]?.lint().map(\.ruleID) == ["later"])
        let wrongType = payload.evaluate("c", in: EvaluationContext(attributes: ["country": 49]))
        #expect(wrongType.value == 1)
        #expect(
            wrongType.rejected.first?.targeting?.kind == .attributeType(attribute: "country", expected: "string", found: .int))
        let explained = payload.evaluate("c", in: EvaluationContext(attributes: ["country": "FR"]))
        #expect(explained.decision?.attributesRead == ["country"])
        #expect(explained.decision?.unmatched == [UnmatchedRule(ruleID: "de", reason: .conditionFailed)])
    }

    @Test("the dialect in a client: its context, a context given with the call, and details")
    func dialectInAClient() async throws {
        try await acmeFlagsInAClient()
    }

    @Test("the reads, watches and details of Choosing a read and a watch")
    func choosingReads() async throws {
        let json = #"{"new_checkout": {"default": true}, "max_retries": {"default": 4}, "layout.columns": {"default": 3}}"#
        try await withArticleClient(json) { client, fetcher in
            #expect(checkoutTitle(client: client) == "New checkout")
            #expect(checkoutEnabled(client: client, userID: "u1", country: "DE"))
            let size = gridSize(client: client)
            #expect(size.columns == 3 && size.rows == 3)
            #expect(await retriesAtStartUp(client: client) == 4)
            #expect(checkoutDiagnosis(client: client).hasPrefix("new_checkout = true (STATIC) from snapshot"))

            let (shown, show) = AsyncStream<Bool>.makeStream()
            let follower = Task { await followCheckout(client: client) { show.yield($0) } }
            let logger = Task { await logChanges(client: client) }
            let events = Task { await logEvents(client: client) }
            var values = shown.makeAsyncIterator()
            #expect(await values.next() == true)
            fetcher.serve(json: #"{"new_checkout": {"default": false}}"#)
            try await client.refresh()
            #expect(await values.next() == false)
            await client.stop()
            await follower.value
            await logger.value
            await events.value
        }
    }
}
