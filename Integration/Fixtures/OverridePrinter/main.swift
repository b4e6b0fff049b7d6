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
// The resolution here stands in for the client's; the output format is meant to stay stable.
import ConfigDomain
import ConfigPorts
import EnvAdapter
import Foundation

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

/// One JSON line for `key`: the first layer whose value the key accepts wins.
func line<Value>(for key: ConfigKey<Value>, layers: [OverrideSnapshot]) -> String {
    var firstRejection: Rejection?
    for layer in layers {
        guard let override = layer.values[key.name] else { continue }
        let result: Result<Value, Rejection>
        switch override.content {
        case .text(let text): result = key.resolve(text: text, origin: override.origin)
        case .value(let value): result = key.resolve(value, origin: override.origin)
        }
        switch result {
        case .success(let value):
            return render(key, value: value, origin: override.origin, rejection: firstRejection)
        case .failure(let rejection):
            if firstRejection == nil { firstRejection = rejection }
        }
    }
    return render(key, value: key.defaultValue, origin: "default", rejection: firstRejection)
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
let descriptors = [
    Keys.newCheckout.descriptor, Keys.maxRetries.descriptor, Keys.sampleRate.descriptor, Keys.apiBaseURL.descriptor,
    Keys.theme.descriptor, Keys.tags.descriptor, Keys.banner.descriptor, Keys.apiToken.descriptor,
]
var layers: [OverrideSnapshot] = []
for source in sources {
    layers.append(await source.overrides(for: descriptors))
}

print(line(for: Keys.newCheckout, layers: layers))
print(line(for: Keys.maxRetries, layers: layers))
print(line(for: Keys.sampleRate, layers: layers))
print(line(for: Keys.apiBaseURL, layers: layers))
print(line(for: Keys.theme, layers: layers))
print(line(for: Keys.tags, layers: layers))
print(line(for: Keys.banner, layers: layers))
print(line(for: Keys.apiToken, layers: layers))
for (source, layer) in zip(sources, layers) {
    for problem in layer.problems {
        print(ConfigValue.object(["source": .string(source.name), "problem": .string(problem)]).jsonText())
    }
}
