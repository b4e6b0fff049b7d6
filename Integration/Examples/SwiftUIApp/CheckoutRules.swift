import Foundation
import RemoteConfigApp

/// Code that is not a view reads settings through `@RemoteValue`, from the process default client.
struct CheckoutRules {
    @RemoteValue(Flags.newCheckout) var newCheckout
    @RemoteValue(Flags.maxRetries) var maxRetries

    /// How many times to retry a failed payment.
    var attempts: Int { newCheckout ? maxRetries + 1 : 1 }
}
