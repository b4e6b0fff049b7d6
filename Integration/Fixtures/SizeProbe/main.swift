// SizeProbe: the smallest app that uses the library, for measuring the library's code size.
//
// It builds a client with `RemoteConfig` and a `FileSnapshotCache`, reads one key and prints it,
// so the linker keeps what such an app needs (the builder, the client with its refresh engine,
// the file cache) and nothing of the tools, tests or other adapters. Its fetcher is its own
// two-line type, so no network adapter is linked.
//
//   swift build -c release --product SizeProbe
//   strip -o /tmp/SizeProbe .build/release/SizeProbe && size /tmp/SizeProbe
//   .build/release/SizeProbe [cache directory]      # prints false (the default) with an empty cache
import FileCacheAdapter
import Foundation
import RemoteConfig

/// A fetcher that never fetches: the values come from the cache.
struct OfflineFetcher: ConfigFetcher {
    func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchResult {
        throw FetchError(.transport, retry: .backoff, message: "SizeProbe does not fetch")
    }
}

let newCheckout = ConfigKey("new_checkout", default: false)
let directory = CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : NSTemporaryDirectory() + "SizeProbe"
do {
    let client = try RemoteConfigClient.builder(fetcher: OfflineFetcher())
        .cache(FileSnapshotCache(directoryPath: directory))
        .register(newCheckout)
        .build()
    print(client[newCheckout])
} catch {
    FileHandle.standardError.write(Data("SizeProbe: \(error)\n".utf8))
    exit(1)
}
