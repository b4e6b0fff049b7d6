import ConfigDomain
import ConfigPorts
import Foundation

/// Overrides from launch arguments, such as an Xcode scheme's `-rc.new_checkout true`.
///
/// With the default prefix `rc`, these forms are read (the first element of the arguments,
/// the executable's path, is skipped):
///
/// | form                      | example                         |
/// |---------------------------|---------------------------------|
/// | `-rc.<key> <value>`       | `-rc.new_checkout true`         |
/// | `-rc.<key>=<value>`       | `-rc.new_checkout=true`         |
/// | `--rc-<key>=<value>`      | `--rc-new-checkout=true`        |
/// | `--rc-<key> <value>`      | `--rc-new-checkout true`        |
///
/// - The key ends at the first `=`, which starts the value (`--rc-name=` gives empty text).
///   Without `=`, the next argument is the value, whatever it looks like (`-rc.offset -5` works),
///   unless it is itself one of these flags or `--`: then the value is missing, which is a problem.
/// - The key is matched first exactly against the registered names, then through the
///   ``KeyMapping``: `--rc-new-checkout`, `-rc.newCheckout` and `-rc.NEW_CHECKOUT` all find
///   `new_checkout`. A name that matches several registered keys only after mapping is a problem;
///   write the exact key name.
/// - An unknown key is a problem, with a "did you mean" hint when one registered key is close.
///   A key given twice is a problem; the last one wins.
/// - Arguments without the prefix (Xcode's `-NSDoubleLocalizedStrings YES`, your own flags) are
///   ignored, and so is everything after a lone `--`.
/// - Values are returned as text; the origin is the flag as written, without `=value`
///   (`-rc.new_checkout`, `--rc-new-checkout`). Problems never contain values.
public struct LaunchArgumentsOverrideSource: SynchronousOverrideSource {
    /// `launch arguments`.
    public let name = "launch arguments"
    /// The arguments, the executable's path first.
    public let arguments: [String]
    /// The prefix of the flags this source reads: `rc` for `-rc.<key>` and `--rc-<key>`.
    public let prefix: String
    /// The mapping used to match a flag's key to a registered key when the names differ.
    public let mapping: KeyMapping

    /// Creates a source over `arguments` (by default the process arguments).
    public init(
        arguments: [String] = ProcessInfo.processInfo.arguments, prefix: String = "rc", mapping: KeyMapping = .standard
    ) {
        self.arguments = arguments
        self.prefix = prefix
        self.mapping = mapping
    }

    /// The values the arguments give the registered keys, and the problems found.
    public func overrides(for keys: [KeyDescriptor]) async -> OverrideSnapshot {
        overridesSynchronously(for: keys)
    }

    /// The same as ``overrides(for:)``, on the calling thread (what `buildSynchronously()` reads).
    public func overridesSynchronously(for keys: [KeyDescriptor]) -> OverrideSnapshot {
        let registered = Dictionary(keys.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let index = VariableIndex(keys: keys, prefix: "", mapping: mapping)
        let singleDash = "-\(prefix)."
        let doubleDash = "--\(prefix)-"
        func isFlag(_ argument: String) -> Bool {
            argument == "--" || argument.hasPrefix(singleDash) || argument.hasPrefix(doubleDash)
        }

        var values: [String: OverrideValue] = [:]
        var problems: [String] = []
        var position = 1
        while position < arguments.count {
            let argument = arguments[position]
            position += 1
            if argument == "--" { break }
            let flagPrefix: String
            if argument.hasPrefix(doubleDash) {
                flagPrefix = doubleDash
            } else if argument.hasPrefix(singleDash) {
                flagPrefix = singleDash
            } else {
                continue
            }

            let body = argument.dropFirst(flagPrefix.count)
            let keyText: Substring
            let flag: String
            let value: String
            if let equals = body.firstIndex(of: "=") {
                keyText = body[..<equals]
                flag = flagPrefix + keyText
                value = String(body[body.index(after: equals)...])
            } else {
                keyText = body
                flag = argument
                guard position < arguments.count, !isFlag(arguments[position]) else {
                    problems.append("\(flag) has no value; write \(flag) <value> or \(flag)=<value>")
                    continue
                }
                value = arguments[position]
                position += 1
            }
            guard !keyText.isEmpty else {
                problems.append("\(flag) names no key; write \(flagPrefix)<key> <value>")
                continue
            }

            let key: KeyDescriptor
            if let exact = registered[String(keyText)] {
                key = exact
            } else {
                switch index.lookup(mapping(String(keyText))) {
                case .key(let mapped):
                    key = mapped
                case .ambiguous(let names):
                    let quoted = names.map { "\"\($0)\"" }.joined(separator: ", ")
                    problems.append("\(flag) matches keys \(quoted) after mapping; write the exact key name")
                    continue
                case .unknown:
                    var problem = "\(flag) names no registered key"
                    if let suggestion = index.suggestion(for: mapping(String(keyText))) {
                        problem += UnknownNameReport.hintText(
                            wrote: flag, meant: flagPrefix + suggestion.key.name, key: suggestion.key.name)
                    }
                    problems.append(problem)
                    continue
                }
            }
            if let earlier = values[key.name] {
                problems.append(
                    "key \"\(key.name)\" is given twice, by \(earlier.origin) and then \(flag); the last one wins")
            }
            values[key.name] = OverrideValue(.text(value), origin: flag)
        }
        return OverrideSnapshot(values: values, problems: problems)
    }
}
