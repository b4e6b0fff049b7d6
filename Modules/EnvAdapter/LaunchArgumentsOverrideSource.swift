import ConfigDomain
import ConfigPorts
import Foundation

/// Overrides from launch arguments, such as an Xcode scheme's `-rc.new_checkout true`.
///
/// With the default prefix `rc`, it reads `-rc.<key> <value>`, `-rc.<key>=<value>`,
/// `--rc-<key> <value>` and `--rc-<key>=<value>`, skipping the first argument (the executable).
/// - Without `=`, the next argument is the value (`-rc.offset -5` works) unless it is a flag or `--`.
/// - The key is matched exactly, then through the ``KeyMapping`` (`--rc-new-checkout` finds
///   `new_checkout`); several keys matched only after mapping, an unknown key (with a "did you
///   mean" hint) and a key given twice (the last wins) are problems.
/// - Other arguments, and everything after a lone `--`, are ignored.
/// - Values are text; the origin is the flag as written, without `=value`. Problems never contain values.
public struct LaunchArgumentsOverrideSource: OverrideSource {
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
    public func overrides(for keys: [KeyDescriptor]) -> OverrideSnapshot {
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
                    let hint = index.suggestion(for: mapping(String(keyText))).map {
                        VariableIndex.hint(wrote: flag, meant: flagPrefix + $0.key.name, key: $0.key.name)
                    }
                    problems.append("\(flag) names no registered key" + (hint ?? ""))
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
