#if canImport(Observation)
    import ConfigDomain
    import ConfigPorts
    import Foundation
    import Observation
    import RemoteConfig

    /// A client's values for SwiftUI: an `@Observable` view that views read directly and that
    /// moves to each new activation, so a view redraws when a value it reads changes.
    ///
    /// ```swift
    /// @State private var config = ObservableConfig(client)
    /// var body: some View {
    ///     if config[Flags.newCheckout] { NewCheckout() } else { OldCheckout() }
    /// }
    /// ```
    ///
    /// Given `keys`, it moves only when one of them changes. Every read through it sees one
    /// activation, like `RemoteConfigClient.view(for:)`. It follows the client's `watch()` until it
    /// is released or the client stops.
    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
    @MainActor
    @Observable
    public final class ObservableConfig {
        /// The client it follows.
        public let client: RemoteConfigClient
        /// The state reads see: one activation of the client.
        public private(set) var current: ConfigView
        /// Ends the watch when this object is released.
        @ObservationIgnored private let watching = CancelOnRelease()

        /// Follows `client`: every key, or only `keys` when given.
        public init(_ client: RemoteConfigClient, keys: [any ConfigKeyRepresentable]? = nil) {
            self.client = client
            self.current = client.view()
            let followed = keys.map { Set($0.map(\.name)) }
            watching.task = Task { [weak self] in
                for await view in client.watch() {
                    if let followed, let changed = view.update?.changedKeys, followed.isDisjoint(with: changed) { continue }
                    guard let self else { return }
                    if view.generation > self.current.generation { self.current = view }
                }
            }
        }

        /// The key's value in the current state.
        public subscript<Value>(key: ConfigKey<Value>) -> Value { current[key] }

        /// The generation of the current state.
        public var generation: UInt64 { current.generation }
    }

    /// Cancels its task when it is released.
    private final class CancelOnRelease: Sendable {
        private let held = Locked<Task<Void, Never>?>(nil)

        /// The task to cancel.
        var task: Task<Void, Never>? {
            get { held.current }
            set { held.withLock { $0 = newValue } }
        }

        deinit { held.current?.cancel() }
    }

    extension ConfigKeyRepresentable {
        /// The key's name, read through its ``ConfigKey``.
        fileprivate var name: String { configKey.name }
    }
#endif
