#if canImport(SwiftUI)
    import RemoteConfig
    import SwiftUI

    /// Where the environment keeps the ``ObservableConfig`` views read.
    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
    private struct ObservableConfigKey: EnvironmentKey {
        static let defaultValue: ObservableConfig? = nil
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
    extension EnvironmentValues {
        /// The configuration views read (`@Environment(\.remoteConfig) var config`); nil until an
        /// ancestor sets it with ``SwiftUI/View/remoteConfig(_:)``.
        public var remoteConfig: ObservableConfig? {
            get { self[ObservableConfigKey.self] }
            set { self[ObservableConfigKey.self] = newValue }
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
    extension View {
        /// Gives this view and its descendants `config` as `\.remoteConfig`.
        public func remoteConfig(_ config: ObservableConfig) -> some View {
            environment(\.remoteConfig, config)
        }
    }
#endif
