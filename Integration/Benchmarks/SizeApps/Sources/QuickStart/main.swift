// The README's quick start as an app: HTTP with conditional GET, the file cache, environment overrides,
// a freshness policy, two keys with a rule, a refresh and a read.
import EnvAdapter
import FileCacheAdapter
import Foundation
import HTTPAdapter
import RemoteConfig

enum Flags {
    static let newCheckout = ConfigKey("new_checkout", default: false)
    static let maxRetries = ConfigKey("max_retries", default: 3, rules: [.range(0...10)])
}

let url = URL(string: CommandLine.arguments.dropFirst().first ?? "http://127.0.0.1:9/config.json")
let client = try RemoteConfigClient.builder(fetcher: try HTTPFetcher(url: url ?? URL(fileURLWithPath: "/")))
    .cache(FileSnapshotCache(directory: URL(fileURLWithPath: NSTemporaryDirectory() + "QuickStart")))
    .override(EnvironmentOverrideSource(prefix: "MYAPP_"))
    .freshness(FreshnessPolicy(ttl: 3600, maxStale: .seconds(7 * 86_400)))
    .register(Flags.newCheckout, Flags.maxRetries)
    .build()
_ = try? await client.refresh()
print(client[Flags.newCheckout], client[Flags.maxRetries])
