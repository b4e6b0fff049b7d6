import ConfigPorts

extension AsyncStream<ChangeSignal>.Iterator {
    /// The next signal that says something of the configuration, skipping connection reports (a push
    /// source may report its connection at any time); nil when the stream ends.
    mutating func nextChange() async -> ChangeSignal? {
        while let signal = await next() {
            if signal.isChange { return signal }
        }
        return nil
    }
}
