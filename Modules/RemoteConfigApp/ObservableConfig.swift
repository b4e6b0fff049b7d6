#if canImport(Observation)
    import ConfigDomain
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
    /// activation, like ``RemoteConfigClient/snapshot()``.
    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
    @MainActor
    @Observable
    public final class ObservableConfig {
        /// The client it follows.
        public let client: RemoteConfigClient
        /// The state reads see: one activation of the client.
        public private(set) var current: ConfigView
        /// The names of the keys it follows, or nil for every key.
        @ObservationIgnored private let followed: Set<String>?
        /// Keeps the client's change handler registered while this object lives.
        @ObservationIgnored private var token: ObservationToken?

        /// Follows `client`: every key, or only `keys` when given.
        public init(_ client: RemoteConfigClient, keys: [any ConfigKeyRepresentable]? = nil) {
            self.client = client
            self.current = client.snapshot()
            self.followed = keys.map { Set($0.map(\.name)) }
            let followed = self.followed
            token = client.onChange { [weak self] update in
                if let followed, followed.isDisjoint(with: update.changedKeys) { return }
                Task { @MainActor in self?.moveToCurrentState() }
            }
        }

        /// The key's value in the current state.
        public subscript<Value>(key: ConfigKey<Value>) -> Value { current[key] }

        /// The generation of the current state.
        public var generation: UInt64 { current.generation }

        /// Takes the client's state now, when it is newer than the one held.
        private func moveToCurrentState() {
            let latest = client.snapshot()
            if latest.generation > current.generation { current = latest }
        }
    }

    extension ConfigKeyRepresentable {
        /// The key's name, read through its ``ConfigKey``.
        fileprivate var name: String { configKey.name }
    }
#endif
