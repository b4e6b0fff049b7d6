import ConfigDomain
import Foundation
import RemoteConfig
import TestSupport

/// Waits for a client's key to reach a value, on the client's own `watch(_:)` (a safety-net timeout only).
final class ChangeWaiter<Value: Sendable & Equatable>: Sendable {
    private let reached = Eventual<Date>()
    private let watching: Task<Void, Never>

    /// Starts watching `key` on `client` for `value` (already there counts).
    init(_ client: RemoteConfigClient, _ key: ConfigKey<Value>, equals value: Value) {
        let reached = self.reached
        if client[key] == value { _ = reached.set(Date()) }
        watching = Task {
            for await current in client.watch(key) where current == value {
                _ = reached.set(Date())
                return
            }
        }
    }

    /// When the value was reached, or nil when it was not within `seconds`.
    func wait(within seconds: TimeInterval = 20) async -> Date? {
        defer { watching.cancel() }
        return await reached.value(within: seconds)
    }
}

/// Writes `text` to `file` atomically (a new inode, as editors do), so a server notices a new version.
func writeAtomically(_ text: String, to file: URL) throws {
    try Data(text.utf8).write(to: file, options: .atomic)
}
