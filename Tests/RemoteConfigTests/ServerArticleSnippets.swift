import ConfigDomain
import ConfigPorts
import Foundation
import TestDoubles

@testable import RemoteConfig

// The code of the article "Flags in a server" (Modules/RemoteConfig/RemoteConfig.docc/FlagsInAServer.md)
// that needs only the core: compiled here, and found in the article by `ServerArticleTests`.

enum ServerFlags {
    static let newCheckout = ConfigKey("new_checkout", default: false)
    static let buttonColor = ConfigKey("button_color", default: "gray")
}

func checkoutPage(client: RemoteConfigClient, userID: String, country: String) -> String {
    let user = EvaluationContext(targetingKey: userID, attributes: ["country": .string(country)])
    let enabled = client[ServerFlags.newCheckout, for: user]
    let color = client[ServerFlags.buttonColor, for: user]
    return enabled ? "new checkout, \(color) button" : "old checkout"
}

func checkoutFlags(client: RemoteConfigClient, user: EvaluationContext) -> (newCheckout: Bool, color: String) {
    let flags = client.view(for: user)
    return (flags[ServerFlags.newCheckout], flags[ServerFlags.buttonColor])
}

func whyThisValue(client: RemoteConfigClient, user: EvaluationContext) {
    let details = client.details(ServerFlags.newCheckout, for: user)
    print(details.value, details.variant ?? "-", details.reason, details.decision?.match?.ruleID ?? "no rule")
    print(details)  // the summary, then the context, the snapshot, the rules' decision and each rejection
}
