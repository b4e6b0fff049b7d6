// Resolves a few typed keys from this process's real launch arguments, environment and a .env
// file, by precedence arguments > environment > .env > default, and prints one JSON line per key:
//
//   {"name":"max_retries","origin":"MYAPP_MAX_RETRIES","rejection":null,"value":7}
//
// `value` is the resolved value as JSON ("<redacted>" for a secret key), `origin` the variable,
// argument or `<file>:<line>` that won (or "default"), `rejection` the description of the
// highest-precedence value that was rejected on the way (or null). After the keys, one line per
// problem a source reported: {"problem":"...","source":"environment"}. Members are sorted by name.
//
// Usage: OverridePrinterFixture [--env-file <path>] [-rc.<key> <value> | --rc-<key>=<value> ...]
// Environment variables are read with the prefix MYAPP_.
//
// Resolution goes through the real client (RemoteConfigClient with the three sources as overrides,
// no remote snapshot); the output format is meant to stay stable.
import ConfigDomain
import ConfigPorts
import EnvAdapter
import Foundation
import RemoteConfig
import TestDoubles

enum Theme: String, CaseIterable, Sendable {
    case light, dark
}

struct Banner: Codable, Sendable {
    var title: String
    var color: String
}

enum Keys {
    static let newCheckout = ConfigKey("new_checkout", default: false)
    static let maxRetries = ConfigKey("max_retries", default: 3, rules: [.range(0...10)])
    static let sampleRate = ConfigKey("sample_rate", default: 0.5)
    static let apiBaseURL = ConfigKey("api.base-url", default: URL(fileURLWithPath: "/unset"))
    static let theme = ConfigKey("theme", default: Theme.light)
    static let tags = ConfigKey("tags", default: [String]())
    static let banner = ConfigKey(decoding: "banner", default: Banner(title: "none", color: "blue"))
    static let apiToken = ConfigKey("api_token", default: "", rules: [.pattern("tok_[a-z0-9]{8}")], secret: true)
}

/// The value of `--env-file <path>` in the arguments, if any.
func envFilePath(in arguments: [String]) -> String? {
    guard let flag = arguments.firstIndex(of: "--env-file"), flag + 1 < arguments.count else { return nil }
    return arguments[flag + 1]
}

/// One JSON line for `key`, as the real client resolved it: value, winning origin, first rejection.
func line<Value>(for key: ConfigKey<Value>, in client: RemoteConfigClient) -> String {
    let explanation = client.details(key)
    let origin: String =
        switch explanation.layer {
        case .override(_, _, let origin): origin
        case .defaultValue: "default"
        case .snapshot(let source), .lastGoodSnapshot(let source), .bundledDefaults(let source): source
        }
    return render(key, value: client[key], origin: origin, rejection: explanation.rejected.first)
}

func render<Value>(_ key: ConfigKey<Value>, value: Value, origin: String, rejection: Rejection?) -> String {
    let rendered: ConfigValue =
        key.isSecret ? .string(Rejection.redacted) : (key.converter.toValue(value) ?? .string(String(describing: value)))
    let object: ConfigValue = .object([
        "name": .string(key.name),
        "value": rendered,
        "origin": .string(origin),
        "rejection": rejection.map { .string($0.description) } ?? .null,
    ])
    return object.jsonText()
}

let arguments = ProcessInfo.processInfo.arguments
let sources: [any OverrideSource] = [
    LaunchArgumentsOverrideSource(arguments: arguments),
    EnvironmentOverrideSource(prefix: "MYAPP_", environment: ProcessInfo.processInfo.environment),
    DotEnvOverrideSource(fileURL: URL(fileURLWithPath: envFilePath(in: arguments) ?? ".env")),
]
let problems = ProblemLog()
var builder = RemoteConfigClient.builder(fetcher: InMemoryFetcher(json: "{}"))
    .observer(
        ClosureObserver { event in
            if case .overrideProblem(let source, let message) = event { problems.append(source: source, message: message) }
        }
    )
    .register(
        Keys.newCheckout, Keys.maxRetries, Keys.sampleRate, Keys.apiBaseURL, Keys.theme, Keys.tags, Keys.banner, Keys.apiToken)
for source in sources { builder = builder.override(source) }
let client: RemoteConfigClient
do {
    client = try builder.build()
} catch {
    FileHandle.standardError.write(Data("OverridePrinterFixture: \(error)\n".utf8))
    exit(1)
}

print(line(for: Keys.newCheckout, in: client))
print(line(for: Keys.maxRetries, in: client))
print(line(for: Keys.sampleRate, in: client))
print(line(for: Keys.apiBaseURL, in: client))
print(line(for: Keys.theme, in: client))
print(line(for: Keys.tags, in: client))
print(line(for: Keys.banner, in: client))
print(line(for: Keys.apiToken, in: client))
for (source, message) in problems.entries {
    print(ConfigValue.object(["source": .string(source), "problem": .string(message)]).jsonText())
}

/// Problems reported by override sources through the client's events, in order.
final class ProblemLog: Sendable {
    private let storage = Locked<[(String, String)]>([])
    func append(source: String, message: String) {
        storage.withLock { $0.append((source, message)) }
    }
    var entries: [(String, String)] { storage.current }
}
