#if canImport(SwiftUI)
    import RemoteConfigApp
    import SwiftUI

    /// The screen: reads through the `ObservableConfig` in the environment, so it redraws after
    /// each activation that changes what it shows.
    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
    struct CheckoutScreen: View {
        @Environment(\.remoteConfig) private var config

        var body: some View {
            if let config {
                VStack(spacing: 12) {
                    if !config[Flags.bannerText].isEmpty { Text(config[Flags.bannerText]).font(.headline) }
                    Text(config[Flags.newCheckout] ? "New checkout" : "Classic checkout")
                    Text("Up to \(config[Flags.maxRetries]) retries")
                    ThemePicker(config: config)
                }
                .padding()
            } else {
                Text("No configuration in the environment")
            }
        }
    }

    /// A setting the user changes: the picker writes to the app's `LocalOverrideStore`, which checks the key's rules.
    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
    struct ThemePicker: View {
        let config: ObservableConfig

        var body: some View {
            Picker(
                "Theme",
                selection: Binding(
                    get: { config[Flags.theme] },
                    set: { theme in Task { try? await ExampleEnvironment.userSettings.set(Flags.theme, theme) } })
            ) {
                ForEach(Theme.allCases, id: \.self) { Text($0.rawValue.capitalized).tag($0) }
            }
        }
    }

    /// Before Observation (iOS 16, macOS 13 and older) the screen reads the client once per draw.
    struct ClassicCheckoutScreen: View {
        let rules = CheckoutRules()

        var body: some View {
            Text(rules.newCheckout ? "New checkout" : "Classic checkout")
        }
    }
#endif
