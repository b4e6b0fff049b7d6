import Foundation

/// Prints the demo's story: numbered steps, plain sentences, indented details and server log lines.
struct Narrator: Sendable {
    var console: Console = .shared
    /// Where the story started, for the closing time.
    let start = Date()

    /// A numbered step's title, after a blank line.
    func step(_ number: Int, _ title: String) {
        console.line()
        console.line(console.styled("\(number). \(title)", .bold, .blue))
    }

    /// A sentence of the story.
    func say(_ sentence: String) { console.line("   " + sentence) }

    /// A detail under a sentence (a value read, a header).
    func detail(_ text: String) { console.line("     " + text) }

    /// A line the embedded server logged.
    func server(_ text: String) { console.line("     " + console.styled("server │ " + text, .dim)) }

    /// `text` emphasised.
    func strong(_ text: String) -> String { console.styled(text, .bold) }

    /// `text` in green (good news).
    func good(_ text: String) -> String { console.styled(text, .green) }

    /// `text` in yellow (something to notice).
    func notice(_ text: String) -> String { console.styled(text, .yellow) }

    /// `text` in red (a failure, handled).
    func bad(_ text: String) -> String { console.styled(text, .red) }
}
