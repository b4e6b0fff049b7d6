import ConfigDomain
import ConfigPorts
import Foundation
import RemoteConfig

/// The client the app installs for the whole process, read by `@RemoteValue` when no client is given.
private let processDefaultClient = Locked<RemoteConfigClient?>(nil)

extension RemoteConfigClient {
    /// The process's default client: `@RemoteValue` properties declared without a client read it.
    ///
    /// ```swift
    /// RemoteConfigClient.processDefault = try RemoteConfigClient.builder(fetcher: fetcher).register { … }.build()
    /// ```
    ///
    /// Nil until the app sets it; a wrapper read before then returns the key's default.
    public static var processDefault: RemoteConfigClient? {
        get { processDefaultClient.current }
        set { processDefaultClient.withLock { $0 = newValue } }
    }
}
