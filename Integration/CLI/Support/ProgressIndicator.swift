import Foundation

/// A spinner with a message on standard error while a long operation runs, only on a terminal.
///
/// Off a terminal it prints nothing, so piped output and logs stay clean.
final class ProgressIndicator: @unchecked Sendable {
    // @unchecked Sendable: `message` and `finished` are only touched while holding `lock`;
    // `task` is set once in `init` and only cancelled afterwards.
    private let lock = NSLock()
    private var message: String
    private var finished = false
    private var task: Task<Void, Never>?
    private let console: Console

    /// Starts showing `message` (when standard error is a terminal).
    init(_ message: String, console: Console = .shared) {
        self.message = message
        self.console = console
        guard console.errorIsTerminal else { return }
        let frames = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]
        task = Task { [weak self] in
            var frame = 0
            while !Task.isCancelled {
                guard let self, let text = self.currentMessage() else { return }
                self.console.transient("\r\u{1B}[K\(frames[frame % frames.count]) \(text)")
                frame += 1
                try? await Task.sleep(nanoseconds: 80_000_000)
            }
        }
    }

    /// Replaces the message.
    func update(_ text: String) {
        lock.lock()
        message = text
        lock.unlock()
    }

    /// Stops the spinner and clears its line.
    func finish() {
        lock.lock()
        let wasFinished = finished
        finished = true
        lock.unlock()
        guard !wasFinished, let task else { return }
        task.cancel()
        console.transient("\r\u{1B}[K")
    }

    private func currentMessage() -> String? {
        lock.lock()
        defer { lock.unlock() }
        return finished ? nil : message
    }

    deinit { task?.cancel() }
}

/// Runs `body` with a spinner showing `message`, and clears it afterwards.
func withProgress<T>(_ message: String, _ body: () async throws -> T) async rethrows -> T {
    let progress = ProgressIndicator(message)
    defer { progress.finish() }
    return try await body()
}
