import ConfigDomain
import ConfigPorts
import FlagdFormat
import Foundation
import GrowthBookFormat
import LaunchDarklyFormat
import OFREPAdapter
import Testing

/// Flag files in three vendors' formats, as `serve` and `eval` read them.
enum VendorFiles {
    /// flagd: a rule on the email, a 50/50 split, a disabled flag, and flagd's `$schema`.
    static let flagd = """
        {"$schema": "https://flagd.dev/schema/v0/flags.json",
         "flags": {
           "new-checkout": {"state": "ENABLED", "variants": {"on": true, "off": false}, "defaultVariant": "off",
             "targeting": {"if": [{"ends_with": [{"var": "email"}, "@example.com"]}, "on", null]}},
           "banner": {"state": "ENABLED", "variants": {"hi": "Hi", "hello": "Hello"}, "defaultVariant": "hi",
             "targeting": {"fractional": [["hi", 50], ["hello", 50]]}},
           "retired": {"state": "DISABLED", "variants": {"on": true, "off": false}, "defaultVariant": "off"}
         }}
        """
    /// GrowthBook: a force rule on the email, a 30% rollout, a plain feature.
    static let growthBook = """
        {"features": {
          "new-checkout": {"defaultValue": false,
            "rules": [{"id": "staff", "condition": {"email": {"$regex": "@example\\\\.com$"}}, "force": true}]},
          "beta": {"defaultValue": false, "rules": [{"id": "beta-30", "force": true, "coverage": 0.3, "hashVersion": 2}]},
          "banner": {"defaultValue": "Hi"}
        }}
        """
    /// LaunchDarkly: an individual target, a rule, a 50/50 fallthrough rollout, and a flag that is off.
    static let launchDarkly = """
        {"flags": {
          "new-checkout": {"key": "new-checkout", "on": true, "salt": "s1", "variations": [false, true], "offVariation": 0,
            "targets": [{"values": ["user-42"], "variation": 1}],
            "rules": [{"id": "staff", "clauses": [{"attribute": "email", "op": "endsWith", "values": ["@example.com"]}],
                       "variation": 1}],
            "fallthrough": {"rollout": {"variations": [{"variation": 0, "weight": 50000}, {"variation": 1, "weight": 50000}]}}},
          "theme": {"key": "theme", "on": false, "variations": ["light", "dark"], "offVariation": 1, "fallthrough": {"variation": 0}}
         },
         "segments": {}}
        """

    /// The contexts the tests evaluate for: a targeted user, a staff email, others (one non-ASCII, one empty key).
    static let contexts: [EvaluationContext] =
        [
            EvaluationContext(targetingKey: "user-42"),
            EvaluationContext(targetingKey: "bob", attributes: ["email": "bob@example.com"]),
            EvaluationContext(targetingKey: "usér-7", attributes: ["email": "u7@example.org", "country": "DE"]),
            EvaluationContext(targetingKey: "ユーザー-9", attributes: ["email": "u9@example.org"]),
            EvaluationContext(targetingKey: ""),
        ] + (1...15).map { EvaluationContext(targetingKey: "user-\($0)", attributes: ["email": .string("u\($0)@mail.example")]) }
}

/// `serve` evaluates any format over OFREP, and `eval` reads any format, as real child processes.
@Suite("remote-config serve and eval, every format the library reads")
struct CLIServeFormatsTests {
    /// The flags of a bulk OFREP answer, by key.
    private func flags(_ response: CLIHTTPClient.Response) throws -> [String: ConfigValue] {
        let body = try JSONParser().parse(response.body)
        let list = try #require(body["flags"]?.arrayValue, "\(response.text)")
        return Dictionary(list.compactMap { flag in flag["key"]?.stringValue.map { ($0, flag) } }) { first, _ in first }
    }

    @Test("serve evaluates a flagd file over OFREP: rules, splits and disabled flags, never $schema and flags as STATIC values")
    func flagdOverOFREP() async throws {
        let scratch = try CLIScratch()
        defer { scratch.remove() }
        let file = try scratch.write("flags.json", VendorFiles.flagd)
        try await CLIServer.with([file.path, "--port", "0"]) { server in
            #expect(server.output.contains("(flagd) on http://127.0.0.1:"), "\(server.output)")
            let bulk = server.url("/ofrep/v1/evaluate/flags")
            let staff = try flags(
                try await CLIHTTPClient.post(bulk, json: #"{"context": {"targetingKey": "bob", "email": "bob@example.com"}}"#))
            #expect(Set(staff.keys) == ["new-checkout", "banner", "retired"], "the flags, not the file's members: \(staff.keys)")
            #expect(staff["new-checkout"]?["value"] == true)
            #expect(staff["new-checkout"]?["reason"] == "TARGETING_MATCH")
            #expect(staff["new-checkout"]?["variant"] == "on")
            // flagd states TARGETING_MATCH for any targeting that decided, a `fractional` split included.
            #expect(staff["banner"]?["reason"] == "TARGETING_MATCH")
            #expect(["hi", "hello"].contains(staff["banner"]?["variant"]?.stringValue ?? ""), "\(staff)")
            #expect(staff["retired"]?["reason"] == "DISABLED")
            let other = try flags(try await CLIHTTPClient.post(bulk, json: #"{"context": {"targetingKey": "carol"}}"#))
            #expect(other["new-checkout"]?["value"] == false)
            let single = try await CLIHTTPClient.post(
                server.url("/ofrep/v1/evaluate/flags/new-checkout"), json: #"{"context": {"email": "a@example.com"}}"#)
            #expect(single.status == 200)
            #expect(try JSONParser().parse(single.body)["value"] == true)
            let schema = try await CLIHTTPClient.post(server.url("/ofrep/v1/evaluate/flags/$schema"), json: "{}")
            #expect(schema.status == 404, "a member of the file is not a flag: \(schema.text)")
        }
    }

    @Test("serve evaluates a GrowthBook file and a LaunchDarkly file over OFREP")
    func growthBookAndLaunchDarklyOverOFREP() async throws {
        let scratch = try CLIScratch()
        defer { scratch.remove() }
        try scratch.write("flags/growthbook.json", VendorFiles.growthBook)
        try scratch.write("flags/launchdarkly.json", VendorFiles.launchDarkly)
        try await CLIServer.with([scratch.path("flags"), "--port", "0"]) { server in
            let growthBook = try flags(
                try await CLIHTTPClient.post(
                    server.url("/growthbook.json/ofrep/v1/evaluate/flags"),
                    json: #"{"context": {"targetingKey": "bob", "email": "bob@example.com"}}"#))
            #expect(growthBook["new-checkout"]?["value"] == true)
            #expect(growthBook["new-checkout"]?["reason"] == "TARGETING_MATCH")
            #expect(growthBook["banner"]?["value"] == "Hi")
            #expect(growthBook["beta"] != nil)

            let endpoint = server.url("/launchdarkly.json/ofrep/v1/evaluate/flags")
            let target = try flags(try await CLIHTTPClient.post(endpoint, json: #"{"context": {"targetingKey": "user-42"}}"#))
            #expect(target["new-checkout"]?["value"] == true)
            #expect(target["new-checkout"]?["reason"] == "TARGETING_MATCH")
            #expect(target["theme"]?["value"] == "dark")
            #expect(target["theme"]?["reason"] == "DISABLED")
            let rule = try flags(
                try await CLIHTTPClient.post(endpoint, json: #"{"context": {"targetingKey": "bob", "email": "bob@example.com"}}"#)
            )
            #expect(rule["new-checkout"]?["value"] == true)
            let anonymous = try flags(try await CLIHTTPClient.post(endpoint, json: #"{"context": {}}"#))
            #expect(anonymous["new-checkout"]?["errorCode"] == "TARGETING_KEY_MISSING", "LaunchDarkly needs a context key")
        }
    }

    @Test("OFREPFetcher reads through serve, at the OFREP_ENDPOINT the banner prints, the values each format reads locally")
    func fetcherMatchesLocalEvaluation() async throws {
        let scratch = try CLIScratch()
        defer { scratch.remove() }
        let files: [(name: String, text: String, format: any PayloadFormat)] = [
            ("flagd.json", VendorFiles.flagd, FlagdFormat()),
            ("growthbook.json", VendorFiles.growthBook, GrowthBookFormat()),
            ("launchdarkly.json", VendorFiles.launchDarkly, LaunchDarklyFormat()),
        ]
        for file in files { try scratch.write("flags/\(file.name)", file.text) }
        try await CLIServer.with([scratch.path("flags"), "--port", "0"]) { server in
            #expect(await server.waitForLine { $0.hasPrefix("Reloads when a file changes") } != nil)
            let endpoints = server.output.matches(of: /OFREP_ENDPOINT=(\S+)\)/).map { String($0.1) }
            #expect(endpoints.count == files.count, "\(server.output)")
            var compared = 0
            for file in files {
                let endpoint = try #require(endpoints.first { $0.hasSuffix("/" + file.name) }, "\(endpoints)")
                let fetcher = try OFREPFetcher(endpoint: try #require(URL(string: endpoint)))
                let local = try file.format.decode(Data(file.text.utf8))
                for context in VendorFiles.contexts {
                    guard case .modified(let fetched) = try await fetcher.fetch(FetchRequest(context: context)) else {
                        Issue.record("an unconditional fetch answered not modified")
                        continue
                    }
                    let remote = try OFREPFormat().decode(fetched.bytes)
                    for key in local.keys {
                        let expected = local.evaluate(key, in: context).value
                        let served = remote.evaluate(key, in: context).value
                        #expect(served == expected, "\(file.name) \(key) for \(context): served \(String(describing: served))")
                        compared += 1
                    }
                }
            }
            #expect(compared == 8 * VendorFiles.contexts.count)
        }
    }

    @Test(
        "the banner prints only URLs that answer: each document, its OFREP endpoint and its event stream, for a folder and a file"
    )
    func bannerURLsAnswer() async throws {
        let scratch = try CLIScratch()
        defer { scratch.remove() }
        try scratch.write("configs/flagd.json", VendorFiles.flagd)
        try scratch.write("configs/plain.json", #"{"theme": "dark"}"#)
        let single = try scratch.write("single.json", VendorFiles.growthBook)
        for target in [scratch.path("configs"), single.path] {
            try await CLIServer.with([target, "--port", "0"]) { server in
                #expect(await server.waitForLine { $0.hasPrefix("Reloads when a file changes") } != nil)
                let banner = server.output.split(separator: "\n").prefix { !$0.hasPrefix("Reloads when") }.joined(separator: "\n")
                let urls = Set(
                    banner.matches(of: /http:\/\/127\.0\.0\.1:\d+\S*/).map { String($0.0).trimmingCharacters(in: ["(", ")"]) })
                let port = try #require(UInt16(server.baseURL.split(separator: ":").last ?? ""))
                var checked = 0
                for url in urls where url != server.baseURL {
                    let path = String(url.dropFirst(server.baseURL.count))
                    if path.hasSuffix("/ofrep/v1/evaluate/flags") {
                        let answer = try await CLIHTTPClient.post(url, json: #"{"context": {"targetingKey": "u1"}}"#)
                        #expect(answer.status == 200, "\(url): \(answer.status) \(answer.text)")
                    } else if path.hasPrefix("/events") {
                        let stream = try RawEventStreams(count: 1, port: port, path: path)
                        #expect(stream.waitUntilEveryStreamContains("HTTP/1.1 200", limit: 10) != nil, "\(url) opens a stream")
                        stream.close()
                    } else {
                        let answer = try await CLIHTTPClient.get(url)
                        #expect(answer.status == 200, "\(url): \(answer.status)")
                    }
                    checked += 1
                }
                #expect(checked >= 3, "a document, its OFREP endpoint and its stream at least:\n\(banner)")
            }
        }
    }

    @Test("a file no format reads is refused at start with the reason (exit 1); --format chooses the format")
    func refusesUnreadableFiles() async throws {
        let scratch = try CLIScratch()
        defer { scratch.remove() }
        let flagd = try scratch.write("flags.json", VendorFiles.flagd)
        let wrongFormat = try await CLIProcess.run(["serve", flagd.path, "--port", "0", "--format", "growthbook"])
        #expect(wrongFormat.status == 1)
        #expect(
            wrongFormat.standardError.hasPrefix(
                "error: cannot serve \(flagd.path): cannot be read as growthbook (--format growthbook)"),
            "\(wrongFormat.standardError)")
        let array = try scratch.write("list.json", "[1, 2]")
        let notAnObject = try await CLIProcess.run(["serve", array.path, "--port", "0"])
        #expect(notAnObject.status == 1)
        #expect(notAnObject.standardError.contains("no format reads it: it is a JSON array"))
        let broken = try scratch.write("broken.json", #"{"flags": {"x": {"state": "ENABLED", "variants": 3}}}"#)
        let brokenFlagd = try await CLIProcess.run(["eval", broken.path])
        #expect(brokenFlagd.status == 1, "read as flagd, its flag rejected, never as plain values: \(brokenFlagd.standardOutput)")
        #expect(brokenFlagd.standardOutput.contains("(flagd)"))
    }

    @Test(
        "eval detects every format from its shape",
        arguments: [
            (VendorFiles.launchDarkly, "launchdarkly"),
            (#"{"f": {"newCheckout": {"t": 0, "v": {"b": true}}}}"#, "configcat"),
            (#"{"flags": {"newCheckout": true}}"#, "configcat"),
            (#"{"parameters": {"welcome": {"defaultValue": {"value": "Hi"}, "valueType": "STRING"}}}"#, "firebase-template"),
            (#"{"flags": [{"key": "greeting", "value": "Hello", "reason": "STATIC"}]}"#, "ofrep"),
            (VendorFiles.flagd, "flagd"),
            (VendorFiles.growthBook, "growthbook"),
            (#"{"greeting": "Hello"}"#, "json"),
        ])
    func evalDetects(_ text: String, _ format: String) async throws {
        let scratch = try CLIScratch()
        defer { scratch.remove() }
        let file = try scratch.write("payload.json", text)
        let outcome = try await CLIProcess.run(["eval", file.path, "--context", #"{"targetingKey": "user-42"}"#])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(
            outcome.standardOutput.hasPrefix("\(file.path) (\(format)) for targeting key \"user-42\""),
            "\(outcome.standardOutput)")
    }
}
