// The lean app: a client over a file cache that reads one `Bool`. Its fetcher is its own two-line type, so
// no network adapter is linked.
import FileCacheAdapter
import Foundation
import RemoteConfig

struct OfflineFetcher: ConfigFetcher {
    func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchResult {
        throw FetchError(.transport, retry: .backoff, message: "this app does not fetch")
    }
}

let newCheckout = ConfigKey("new_checkout", default: false)
let client = try RemoteConfigClient.builder(fetcher: OfflineFetcher())
    .cache(FileSnapshotCache(directoryPath: NSTemporaryDirectory() + "Lean"))
    .register(newCheckout)
    .build()
print(client[newCheckout])
