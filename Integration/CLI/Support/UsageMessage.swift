import ArgumentParser
import Foundation

/// A first argument that names no command: `remote-config serv` answers "did you mean `serve`?".
struct UnknownCommand {
    /// What was typed.
    let typed: String
    /// The command names, in the tool's order.
    let names: [String]

    /// The mistyped command in `arguments`, or nil when the first argument is an option or a command.
    init?(arguments: [String], commands: [any ParsableCommand.Type]) {
        guard let first = arguments.first, !first.hasPrefix("-") else { return nil }
        let names = commands.compactMap { $0.configuration.commandName }
        guard !names.contains(first), first != "help" else { return nil }
        typed = first
        self.names = names
    }

    /// The closest command name, if one is close enough to be what was meant.
    var suggestion: String? { NameSimilarity.closest(to: typed, among: names) }

    /// `error: unknown command 'serv'; did you mean 'serve'?`, with how to see the commands.
    func message(label: String) -> String {
        let guess = suggestion.map { "did you mean '\($0)'?" } ?? "the commands are \(names.joined(separator: ", "))"
        let text = "Error: unknown command '\(typed)'; \(guess)\nSee 'remote-config --help' for what each command does."
        return UsageMessage.relabel(text, label: label)
    }
}

/// The argument parser's messages, in the tool's own form.
enum UsageMessage {
    /// `text` with its leading `Error:` (the argument parser's label) replaced by `label`, the tool's own
    /// `error:` (coloured on a terminal), as every other error of the tool starts.
    static func relabel(_ text: String, label: String) -> String {
        guard text.hasPrefix("Error:") else { return text }
        return label + text.dropFirst("Error:".count)
    }
}
