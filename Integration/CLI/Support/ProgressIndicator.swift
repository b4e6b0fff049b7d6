import ConfigPorts
import Foundation

/// A spinner with a message on standard error while a long operation runs, only on a terminal.
///
/// Off a terminal it prints nothing, so piped output and logs stay clean.
final class ProgressIndicator: Sendable {
    private struct State {
        var message: String
        var finished = false
    }

    private let state: Locked<State>
    private let task: Task<Void, Never>?
    private let console: Console

    /// Starts showing `message` (when standard error is a terminal).
    init(_ message: String, console: Console = .shared) {
        let state = Locked(State(message: message))
        self.state = state
        self.console = console
        guard console.errorIsTerminal else {
            task = nil
            return
        }
        let frames = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]
        // The spinner holds the state, not `self`, so dropping the indicator stops it (in `deinit`).
        task = Task {
            var frame = 0
            while !Task.isCancelled {
                guard let text = state.withLock({ $0.finished ? nil : $0.message }) else { return }
                console.transient("\r\u{1B}[K\(frames[frame % frames.count]) \(text)")
                frame += 1
                try? await Task.sleep(nanoseconds: 80_000_000)
            }
        }
    }

    /// Replaces the message.
    func update(_ text: String) {
        state.withLock { $0.message = text }
    }

    /// Stops the spinner and clears its line.
    func finish() {
        let wasFinished = state.withLock { state -> Bool in
            defer { state.finished = true }
            return state.finished
        }
        guard !wasFinished, let task else { return }
        task.cancel()
        console.transient("\r\u{1B}[K")
    }

    deinit { task?.cancel() }
}

/// Runs `body` with a spinner showing `message`, and clears it afterwards.
func withProgress<T>(_ message: String, _ body: () async throws -> T) async rethrows -> T {
    let progress = ProgressIndicator(message)
    defer { progress.finish() }
    return try await body()
}
