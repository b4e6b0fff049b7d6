import ConfigDomain
import FileCacheAdapter
import Foundation
import HTTPAdapter
import RemoteConfig

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The `memory` mode's keys and payload: `count` keys named `key_0`, `key_1`, …, of types Bool,
/// Int, Double and String in turn, and a JSON object giving each a value other than its default.
enum MemoryWorkload {
    static func name(_ index: Int) -> String { "key_\(index)" }

    /// One registered key per payload value.
    static func keys(count: Int) -> [any ConfigKeyRepresentable] {
        var keys: [any ConfigKeyRepresentable] = []
        keys.reserveCapacity(count)
        for index in 0..<count {
            switch index % 4 {
            case 0: keys.append(ConfigKey(name(index), default: false))
            case 1: keys.append(ConfigKey(name(index), default: 0))
            case 2: keys.append(ConfigKey(name(index), default: 0.0))
            default: keys.append(ConfigKey(name(index), default: ""))
            }
        }
        return keys
    }

    /// The payload: `{"key_0":true,"key_1":8,"key_2":2.5,"key_3":"value-3",…}`.
    static func json(count: Int) -> Data {
        var out = "{"
        out.reserveCapacity(count * 24)
        for index in 0..<count {
            if index > 0 { out += "," }
            out += "\"\(name(index))\":"
            switch index % 4 {
            case 0: out += index % 8 == 0 ? "true" : "false"
            case 1: out += String(index * 7 + 1)
            case 2: out += String(Double(index) + 0.5)
            default: out += "\"value-\(index)\""
            }
        }
        out += "}"
        return Data(out.utf8)
    }

    /// The ETag `memory-seed` stores, so that `memory` can tell it loaded the payload of as many keys.
    static func etag(count: Int) -> String { "\"memory-\(count)\"" }
}

/// The process's peak resident set size so far, in KiB.
func peakResidentKiB() -> Int {
    var usage = rusage()
    #if canImport(Glibc)
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Int(usage.ru_maxrss)  // KiB on Linux
    #else
        getrusage(RUSAGE_SELF, &usage)
        return Int(usage.ru_maxrss) / 1024  // bytes on Darwin
    #endif
}

/// Builds a client holding `count` keys whose values come from the FileSnapshotCache at
/// `directory` (seeded by `memory-seed` with as many keys), reads one key and prints what it held.
///
/// Nothing else is allocated on the way: the peak RSS of two runs with different key counts
/// differs by what the keys, the payload and the client's state for them cost.
func memory(directory: String, keys count: Int) {
    let keys = MemoryWorkload.keys(count: count)
    guard let first = keys.first as? ConfigKey<Bool> else { fail("the first memory key is not a Bool") }
    guard let endpoint = URL(string: "https://config.example.com/v1/config.json") else { fail("bad endpoint URL") }
    let client: RemoteConfigClient
    do {
        // The fetcher is never called: the values come from the cache.
        client = try RemoteConfigClient.builder(fetcher: try HTTPFetcher(url: endpoint))
            .cache(FileSnapshotCache(directoryPath: directory))
            .register(keys)
            .build()
    } catch {
        fail("could not build the client: \(error)")
    }
    let value = client[first]
    // The peak now, before the checks below: listing the registered keys makes a descriptor for each.
    let peak = peakResidentKiB()
    let snapshot = client.status.snapshot
    guard value, client.status.registeredKeys.count == count, snapshot?.validators.etag == MemoryWorkload.etag(count: count),
        let payloadBytes = snapshot?.contentHash.byteCount
    else {
        fail(
            "the client does not hold the cached payload of \(count) keys (cache: \(client.status.cache));"
                + " run `ReadProbe memory-seed \(directory) \(count)` first")
    }
    print("keys=\(count) payloadBytes=\(payloadBytes) value=\(value) maxRSSKiB=\(peak)")
}
