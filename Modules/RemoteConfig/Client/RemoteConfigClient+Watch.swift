import ConfigDomain
import ConfigPorts
import Foundation

extension RemoteConfigClient {
    /// The key's value now, then its value after each change, for the client's own context. The stream
    /// ends when the client stops, or when the task iterating it is cancelled; a slow consumer gets the
    /// latest value.
    ///
    /// ```swift
    /// for await enabled in client.watch(Flags.newCheckout) { showNewCheckout(enabled) }
    /// ```
    public func watch<Value: Sendable>(_ key: ConfigKey<Value>) -> AsyncStream<Value> {
        let registered = registry.slot(for: key.fingerprint, type: key.valueType) != nil
        return follow { client, state, isFirst in
            guard isFirst || !registered || state.update.map({ $0.changedKeys.contains(key.name) }) ?? true else {
                return nil
            }
            return client.value(key, in: state, for: client.contextForWatching)
        }
    }

    /// A view of the current state, then of each new state, in order: its ``ConfigView/update`` says
    /// which keys changed and why. The stream ends when the client stops, or when the task iterating it
    /// is cancelled; a slow consumer gets the latest state.
    ///
    /// ```swift
    /// for await config in client.watch() {
    ///     print(config.update?.changedKeys ?? [], config[Flags.maxRetries])
    /// }
    /// ```
    public func watch() -> AsyncStream<ConfigView> {
        follow { client, state, _ in ConfigView(client: client, state: state, context: client.contextForWatching) }
    }

    /// Watches follow the client's own context: a watch outlives any one request.
    var contextForWatching: EvaluationContext? { nil }

    /// A stream of what `element` makes of the current state (told it is the first), then of each newer
    /// state (nil: nothing for that state), until the client stops or the consumer goes away.
    private func follow<Element: Sendable>(
        _ element: @escaping @Sendable (RemoteConfigClient, ResolvedState, _ isFirst: Bool) -> Element?
    ) -> AsyncStream<Element> {
        let (stream, continuation) = AsyncStream<Element>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let lastGeneration = Locked<UInt64>(0)
        let deliver: @Sendable (RemoteConfigClient, ResolvedState) -> Void = { client, state in
            guard let isFirst = lastGeneration.withLock({ $0 < state.generation ? $0 == 0 : nil }) else { return }
            // Made outside the lock (a read may run hooks); yielded under it, so that two states delivered
            // at once reach the consumer in order and an older one never follows a newer one.
            let made = element(client, state, isFirst)
            lastGeneration.withLock { last in
                guard last < state.generation else { return }
                last = state.generation
                if let made { continuation.yield(made) }
            }
        }
        let handler = states.addHandler(
            { [weak self] state in
                guard let self else { return }
                deliver(self, state)
            }, finish: { continuation.finish() })
        continuation.onTermination = { [weak states] _ in states?.removeHandler(handler) }
        deliver(self, cell.load())
        return stream
    }
}
