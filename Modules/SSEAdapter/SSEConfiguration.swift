import ConfigPorts
import Foundation

extension SSEChangeSignalSource {
    /// Everything an ``SSEChangeSignalSource`` needs besides its URL; every field has a sensible default.
    public struct Configuration: Sendable {
        /// How events become signals (default: each `message` event's data is the new version).
        public var mapping: SignalMapping
        /// Whether each (re)connection starts with `.changed(version: nil)`, so the client checks for a
        /// change it may have missed while disconnected. Turn it off for a server that announces its
        /// current version as the first event (`remote-config serve` does).
        public var signalsOnConnect: Bool
        /// Drop and reopen a connection on which nothing (not even a comment) arrived for this many
        /// seconds; `nil` never does. Keep it above the server's heartbeat interval.
        public var heartbeatTimeout: TimeInterval?
        /// The longest line accepted, in bytes.
        public var maxLineBytes: Int
        /// The most data one event may carry, in bytes.
        public var maxEventBytes: Int
        /// The waits between reconnections.
        public var reconnect: ReconnectPolicy
        /// Extra request headers (an `Authorization` token, for example).
        public var headers: [String: String]
        /// Sleeps for backoff and measures silence (inject `ManualClock` from `TestDoubles` in tests).
        public var clock: any ConfigClock
        /// The source of jitter, a number in `0..<1` (tests make it fixed).
        public var random: @Sendable () -> Double
        /// Told about each connection's life (connecting, connected, disconnected, waiting, paused).
        public var onEvent: (@Sendable (SSEConnectionEvent) -> Void)?

        /// Creates a configuration.
        public init(
            mapping: SignalMapping = .version(), signalsOnConnect: Bool = true, heartbeatTimeout: TimeInterval? = 45,
            maxLineBytes: Int = 64 * 1024, maxEventBytes: Int = 1024 * 1024, reconnect: ReconnectPolicy = ReconnectPolicy(),
            headers: [String: String] = [:], clock: any ConfigClock = SystemClock(),
            random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
            onEvent: (@Sendable (SSEConnectionEvent) -> Void)? = nil
        ) {
            self.mapping = mapping
            self.signalsOnConnect = signalsOnConnect
            self.heartbeatTimeout = heartbeatTimeout
            self.maxLineBytes = maxLineBytes
            self.maxEventBytes = maxEventBytes
            self.reconnect = reconnect
            self.headers = headers
            self.clock = clock
            self.random = random
            self.onEvent = onEvent
        }
    }
}
