import ConfigPorts
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where the tool writes: whole lines, unbuffered, with colour only when the stream is a terminal.
///
/// Colour is off when the stream is not a TTY, when `NO_COLOR` is set, or when `TERM` is `dumb`.
/// Every line is written at once with `write(2)`, so a process reading the tool's output through a
/// pipe sees each line as soon as it is printed.
final class Console: Sendable {
    /// A text style, rendered as an ANSI escape on a terminal and as nothing elsewhere.
    enum Style: String, Sendable {
        case bold = "1"
        case dim = "2"
        case red = "31"
        case green = "32"
        case yellow = "33"
        case blue = "34"
        case magenta = "35"
        case cyan = "36"
    }

    /// The process's console.
    static let shared = Console()

    /// Whether standard output gets colour.
    let colorsOutput: Bool
    /// Whether standard error gets colour.
    let colorsErrors: Bool
    /// Whether standard error is a terminal (progress is shown only there).
    let errorIsTerminal: Bool
    /// Held during every write, so lines from different threads never interleave.
    private let writing = Locked(())

    init() {
        let environment = ProcessInfo.processInfo.environment
        let allowed = environment["NO_COLOR"] == nil && environment["TERM"] != "dumb"
        colorsOutput = allowed && isatty(1) != 0
        colorsErrors = allowed && isatty(2) != 0
        errorIsTerminal = isatty(2) != 0
    }

    /// `text` in `styles` when standard output is coloured, otherwise `text` unchanged.
    func styled(_ text: String, _ styles: Style...) -> String {
        Self.apply(styles, to: text, enabled: colorsOutput)
    }

    /// `text` in `styles` when standard output is coloured, otherwise `text` unchanged.
    func styled(_ text: String, _ styles: [Style]) -> String {
        Self.apply(styles, to: text, enabled: colorsOutput)
    }

    /// Writes one line to standard output.
    func line(_ text: String = "") {
        write(text + "\n", to: FileHandle.standardOutput)
    }

    /// Writes text to standard output as it is (no newline added).
    func raw(_ text: String) {
        write(text, to: FileHandle.standardOutput)
    }

    /// Writes one line to standard error.
    func errorLine(_ text: String) {
        write(text + "\n", to: FileHandle.standardError)
    }

    /// Writes `error: <message>` to standard error: one line a person can act on.
    func failure(_ message: String) {
        let flattened = message.replacingOccurrences(of: "\n", with: " ")
        errorLine("\(errorLabel) \(flattened)")
    }

    /// `error:`, in red and bold when standard error is coloured.
    var errorLabel: String { Self.apply([.red, .bold], to: "error:", enabled: colorsErrors) }

    /// Writes `warning: <message>` to standard error.
    func warning(_ message: String) {
        let label = Self.apply([.yellow, .bold], to: "warning:", enabled: colorsErrors)
        errorLine("\(label) \(message)")
    }

    /// Writes text to standard error without a newline (progress lines redraw in place).
    func transient(_ text: String) {
        write(text, to: FileHandle.standardError)
    }

    private func write(_ text: String, to handle: FileHandle) {
        writing.withLock { _ in handle.write(Data(text.utf8)) }
    }

    private static func apply(_ styles: [Style], to text: String, enabled: Bool) -> String {
        guard enabled, !styles.isEmpty else { return text }
        let codes = styles.map(\.rawValue).joined(separator: ";")
        return "\u{1B}[\(codes)m\(text)\u{1B}[0m"
    }
}
