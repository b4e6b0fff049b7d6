// The Hummingbird example exists only with a Swift 6.2 or later toolchain (see Package.swift).
#if compiler(>=6.2)
    import ConfigDomain
    import ConfigPorts
    import Foundation
    import TargetingFormat
    import TestSupport
    import Testing

    /// `Integration/Examples/HummingbirdFlags` as a child process under concurrent load: a real
    /// configuration server on 127.0.0.1 serves a targeting payload, keep-alive connections ask for the
    /// flags of random users and countries, and every answer is checked against what the payload's rules
    /// give that user, computed by the library's direct evaluation (`DecodedPayload.evaluate`).
    ///
    /// Serialized: the two load runs would otherwise share the machine's cores with each other.
    @Suite("Hummingbird example under concurrent load", .serialized)
    struct HummingbirdFlagsLoadTests {
        /// The load's seed, printed with every run; worker `i` draws from `seed + i`.
        static let seed: UInt64 = 20_261_128
        /// Concurrent connections.
        static let workers = 8

        /// The rules before the change: Germany-speaking countries get the new checkout, and 30% of the
        /// rest; France and Belgium get a purple button, everybody else a 50/50 green/red test.
        static let before = #"""
            {
              "targeting": {
                "new_checkout": {
                  "default": false,
                  "rules": [ { "id": "dach", "when": { "country": { "$in": ["DE", "AT", "CH"] } }, "value": true } ],
                  "rollouts": [ { "id": "gradual", "seed": "checkout-1", "coverage": 0.3, "variants": [ { "value": true } ] } ]
                },
                "button_color": {
                  "rules": [ { "id": "fr-be", "when": { "country": { "$in": ["FR", "BE"] } }, "value": "purple" } ],
                  "rollouts": [ {
                    "id": "colours", "seed": "button-1",
                    "variants": [ { "name": "green", "value": "green", "weight": 0.5 }, { "name": "red", "value": "red", "weight": 0.5 } ]
                  } ]
                }
              }
            }
            """#

        /// The rules after the change: the new checkout everywhere but the US and Japan at 70%, reshuffled;
        /// the button test reshuffled with three colours and Germany orange.
        static let after = #"""
            {
              "targeting": {
                "new_checkout": {
                  "default": false,
                  "rules": [ { "id": "not-yet", "when": { "country": { "$in": ["US", "JP"] } }, "value": false } ],
                  "rollouts": [ { "id": "wide", "seed": "checkout-2", "coverage": 0.7, "variants": [ { "value": true } ] } ]
                },
                "button_color": {
                  "default": "grey",
                  "rules": [ { "id": "de", "when": { "country": "DE" }, "value": "orange" } ],
                  "rollouts": [ {
                    "id": "colours-2", "seed": "button-2", "coverage": 0.9,
                    "variants": [ { "value": "green" }, { "value": "red" }, { "value": "yellow" } ]
                  } ]
                }
              }
            }
            """#

        /// The example's flags and their defaults (the values when no rule decides).
        static let flags: [(name: String, default: ConfigValue)] = [
            ("new_checkout", .bool(false)), ("button_color", .string("blue")),
        ]

        /// What `payload`'s rules give `context` for every flag: the direct evaluation, else the flag's default.
        static func expected(_ payload: DecodedPayload, for context: EvaluationContext) -> [String: ConfigValue] {
            var values: [String: ConfigValue] = [:]
            for flag in flags { values[flag.name] = payload.evaluate(flag.name, in: context).value ?? flag.default }
            return values
        }

        /// The flags an answer carries.
        static func answered(_ observation: FlagsLoad.Observation) -> [String: ConfigValue] {
            var values: [String: ConfigValue] = [:]
            for flag in flags { values[flag.name] = observation.body?[flag.name] }
            return values
        }

        /// Phases of the load test.
        enum Phase {
            /// Before the new payload was published.
            static let before = 0
            /// Published, the admin refresh under way.
            static let changing = 1
            /// The admin refresh returned: every request sent now must see the new rules.
            static let after = 2
        }

        @Test(
            "thousands of concurrent requests, each answered for its own user; a change applies to every request after the refresh"
        )
        func concurrentLoad() async throws {
            let before = try TargetingJSONFormat().decode(Data(Self.before.utf8))
            let after = try TargetingJSONFormat().decode(Data(Self.after.utf8))
            let config = try await TestHTTPServer.start()
            config.publish(Self.before)
            let server: FlagsServerProcess
            do {
                server = try await FlagsServerProcess.start(config: config.url(), evaluation: "context")
            } catch {
                await config.stop()
                throw error
            }
            let outcome = await Result {
                try await load(against: server, config: config)
            }
            let ending = await server.stop()
            await config.stop()
            let (observations, adminGeneration) = try outcome.get()
            #expect(ending == .exited(0), "SIGTERM shuts the service group down gracefully: \(ending)\n\(server.output)")

            var wrong: [String] = []
            var counts = [0, 0, 0]
            var discriminating = 0
            for observation in observations {
                let context = observation.probe.context
                let old = Self.expected(before, for: context)
                let new = Self.expected(after, for: context)
                let got = Self.answered(observation)
                let allowed: [[String: ConfigValue]]
                switch (observation.startPhase, observation.endPhase) {
                case (Phase.before, Phase.before): allowed = [old]
                case (Phase.after, _): allowed = [new]
                default: allowed = [old, new]  // in flight while the change happened
                }
                counts[observation.startPhase] += 1
                if observation.startPhase == Phase.after, old != new { discriminating += 1 }
                let generation = observation.body?["generation"]?.intValue ?? -1
                let echoed = observation.body?["user"]?.stringValue
                if observation.status != 200 || !allowed.contains(got) || echoed != observation.probe.user
                    || (observation.startPhase == Phase.after && generation < adminGeneration)
                {
                    wrong.append(
                        "\(observation.probe) in phase \(observation.startPhase)…\(observation.endPhase): status \(observation.status), "
                            + "\(observation.rawBody); expected one of \(allowed)")
                }
            }
            print(
                "HummingbirdFlags load (seed \(Self.seed), \(Self.workers) connections): \(observations.count) requests, "
                    + "\(counts[0]) before the change, \(counts[1]) during it, \(counts[2]) after it "
                    + "(\(discriminating) of those for users the change affects); \(wrong.count) wrong")
            #expect(wrong.isEmpty, "\(wrong.count) wrong answers, the first: \(wrong.prefix(5).joined(separator: "\n"))")
            #expect(observations.count >= 3_000)
            #expect(counts[Phase.before] >= 1_000 && counts[Phase.after] >= 1_500, "\(counts)")
            // The check can tell the two payloads apart for a good share of the requests after the change.
            #expect(discriminating * 4 >= counts[Phase.after], "\(discriminating) of \(counts[Phase.after])")
        }

        /// Runs the load against `server`, publishing the new payload on `config` mid-run; the observations
        /// and the generation the admin refresh answered.
        private func load(against server: FlagsServerProcess, config: TestHTTPServer) async throws
            -> ([FlagsLoad.Observation], Int64)
        {
            let phase = FlagsLoad.Phase()
            let progress = FlagsLoad.Progress()
            // 1,500 requests before the change; then at least 250 per connection (2,000) after the refresh returned.
            let loadTask = Task {
                try await FlagsLoad.run(
                    port: server.port, workers: Self.workers, seed: Self.seed, phase: phase, lastPhase: Phase.after,
                    progress: progress, cap: 5_000
                ) { sent, sentAfter in sent >= 250 && sentAfter >= 250 }
            }
            let admin = await Result { () async throws -> Int64 in
                guard await progress.wait(for: 1_500, timeout: 120) else {
                    throw FlagsServerProcess.HarnessError(description: "the load did not reach 1,500 requests")
                }
                phase.set(Phase.changing)
                config.publish(Self.after)
                let answer = try await CLIHTTPClient.get(server.url("/admin/refresh"), method: "POST")
                let json = try JSONParser().parse(answer.body)
                guard answer.status == 200, let generation = json["generation"]?.intValue else {
                    throw FlagsServerProcess.HarnessError(description: "admin refresh answered \(answer.status): \(answer.text)")
                }
                phase.set(Phase.after)
                return generation
            }
            if case .failure = admin { phase.set(Phase.after) }
            let observations = try await loadTask.value
            return (observations, try admin.get())
        }

        @Test("the negative control: updateContext, a suspension, then a plain read gives some users another user's flags")
        func swapGivesWrongAnswers() async throws {
            let payload = try TargetingJSONFormat().decode(Data(Self.before.utf8))
            let config = try await TestHTTPServer.start()
            config.publish(Self.before)
            let server: FlagsServerProcess
            do {
                server = try await FlagsServerProcess.start(config: config.url(), evaluation: "swap")
            } catch {
                await config.stop()
                throw error
            }
            // Short bursts of the same load, until one shows a wrong answer (at most five).
            let outcome = await Result { () async throws -> (wrong: Int, total: Int) in
                var wrong = 0
                var total = 0
                for burst in 0..<5 where wrong == 0 {
                    let observations = try await FlagsLoad.run(
                        port: server.port, workers: Self.workers, seed: Self.seed &+ 1_000 &* UInt64(burst + 1),
                        phase: FlagsLoad.Phase(), lastPhase: 0, progress: FlagsLoad.Progress(), cap: 100
                    ) { _, _ in false }
                    total += observations.count
                    wrong +=
                        observations.filter {
                            $0.status != 200 || Self.answered($0) != Self.expected(payload, for: $0.probe.context)
                        }.count
                }
                return (wrong, total)
            }
            let ending = await server.stop()
            await config.stop()
            let (wrong, total) = try outcome.get()
            print("HummingbirdFlags --evaluation swap (seed \(Self.seed)): \(wrong) wrong of \(total)")
            #expect(wrong > 0, "swapping the client's context under concurrent requests must give wrong answers")
            #expect(ending == .exited(0), "\(ending)\n\(server.output)")
        }

        @Test("with the configuration server gone it serves the defaults, and the admin refresh answers 502 with the error")
        func configurationServerGone() async throws {
            let config = try await TestHTTPServer.start()
            let url = config.url()
            await config.stop()
            let server = try await FlagsServerProcess.start(config: url, evaluation: "context")
            let outcome = await Result { () async throws -> (CLIHTTPClient.Response, CLIHTTPClient.Response) in
                let flags = try await CLIHTTPClient.get(server.url("/flags?user=user-1&country=DE"))
                let refresh = try await CLIHTTPClient.get(server.url("/admin/refresh"), method: "POST")
                return (flags, refresh)
            }
            let ending = await server.stop()
            let (flags, refresh) = try outcome.get()
            let answer = try JSONParser().parse(flags.body)
            #expect(flags.status == 200)
            #expect(answer["new_checkout"] == .bool(false) && answer["button_color"] == .string("blue"), "\(flags.text)")
            #expect(answer["user"] == .string("user-1"))
            #expect(refresh.status == 502)
            #expect(try JSONParser().parse(refresh.body)["error"]?.stringValue?.isEmpty == false, "\(refresh.text)")
            #expect(server.output.contains("first refresh failed; serving the defaults"))
            #expect(ending == .exited(0))
        }

        @Test("a client that cannot be built (plain HTTP to another host) exits 1 and says why")
        func clientNotBuilt() async throws {
            let executable = try BuiltProducts.executable(named: "HummingbirdFlagsExample")
            let outcome = try await ChildProcess.run(
                executable, arguments: ["http://config.example.invalid/config.json"], environment: [:],
                currentDirectory: FileManager.default.temporaryDirectory)
            #expect(outcome.status == 1)
            #expect((outcome.standardOutput + outcome.standardError).contains("cannot build the configuration client"))
        }

        @Test("a bad command line exits 64 with the usage")
        func usage() async throws {
            let executable = try BuiltProducts.executable(named: "HummingbirdFlagsExample")
            for arguments in [
                [], ["not a url"], ["http://127.0.0.1:1/a", "--port", "99999"],
                ["http://127.0.0.1:1/a", "--evaluation", "guess"],
            ] {
                let outcome = try await ChildProcess.run(
                    executable, arguments: arguments, environment: [:], currentDirectory: FileManager.default.temporaryDirectory)
                #expect(outcome.status == 64, "\(arguments)")
                #expect(outcome.standardError.contains("usage: HummingbirdFlagsExample <configuration URL>"))
            }
        }
    }

    /// A running `HummingbirdFlagsExample`: started, its printed port read, stopped with SIGTERM (then SIGKILL).
    final class FlagsServerProcess: Sendable {
        /// An error of the harness.
        struct HarnessError: Error, CustomStringConvertible {
            var description: String
        }

        private let child: ChildProcess
        /// The port the example printed.
        let port: UInt16

        private init(child: ChildProcess, port: UInt16) {
            self.child = child
            self.port = port
        }

        /// Starts the example against `config` with `--evaluation <evaluation>` and waits until it prints its port.
        static func start(config: URL, evaluation: String) async throws -> FlagsServerProcess {
            let executable = try BuiltProducts.executable(named: "HummingbirdFlagsExample")
            let child = try ChildProcess(
                executable, arguments: [config.absoluteString, "--port", "0", "--evaluation", evaluation],
                environment: ["LOG_LEVEL": "warning"], mergingErrors: true)
            let prefix = "Listening on http://127.0.0.1:"
            let line = await child.output.line(within: 60) { $0.hasPrefix(prefix) }
            guard let line, let port = UInt16(line.dropFirst(prefix.count)) else {
                _ = await child.stop(grace: 5)
                await child.output.waitForEnd(within: 5)
                throw HarnessError(description: "the example did not print its port; output:\n\(child.output.text)")
            }
            return FlagsServerProcess(child: child, port: port)
        }

        /// `http://127.0.0.1:<port><path>`.
        func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

        /// Everything the example printed.
        var output: String { child.output.text }

        /// Sends SIGTERM, waits up to 10 seconds, then SIGKILL; how it ended.
        func stop() async -> ChildProcess.Ending {
            let ending = await child.stop(grace: 10)
            await child.output.waitForEnd(within: 5)
            return ending
        }
    }
#endif
