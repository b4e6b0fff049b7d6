// An end-to-end tour of the client on test doubles: no network, no disk, a manual clock.
// `swift run DoublesDemo` prints what happens at each step.
import ConfigDomain
import ConfigPorts
import Foundation
import RemoteConfig
import TestDoubles

enum Flags {
    static let newCheckout = ConfigKey("new_checkout", default: false, summary: "Use the new checkout flow")
    static let maxRetries = ConfigKey("max_retries", default: 3, rules: [.range(0...10)])
    static let greeting = ConfigKey("greeting", default: "Hello", rules: [.nonEmpty])
}

func say(_ line: String) { print(line) }

let clock = ManualClock()
let cache = InMemoryCache()
let server = InMemoryFetcher(json: #"{"new_checkout": true, "max_retries": 5, "greeting": "Hi there"}"#)
let qa = InMemoryOverrideSource(name: "qa menu")

do {
    let client = try RemoteConfigClient.builder(fetcher: server)
        .cache(cache)
        .override(qa)
        .clock(clock)
        .freshness(FreshnessPolicy(ttl: 3600, maxStale: .seconds(86_400)))
        .register(Flags.newCheckout, Flags.maxRetries, Flags.greeting)
        .build()
    say(
        "1. Built with an empty cache: new_checkout=\(client[Flags.newCheckout]), max_retries=\(client[Flags.maxRetries]) (defaults)"
    )

    let first = try await client.refresh()
    say("2. First refresh: \(first); now new_checkout=\(client[Flags.newCheckout]), max_retries=\(client[Flags.maxRetries])")

    clock.advance(by: 4000)
    say("3. An hour later the snapshot is \(client.status.freshness.map(\.description) ?? "absent")")
    let second = try await client.refresh()
    say(
        "4. Refresh with the held ETag: \(second); freshness \(client.status.freshness.map(\.description) ?? "absent"), payload bytes written so far \(cache.payloadBytesWritten)"
    )

    server.serve(json: #"{"new_checkout": true, "max_retries": 42, "greeting": "Hi there"}"#)
    _ = try await client.refresh(force: true)
    say("5. The server sends max_retries=42, which breaks range(0...10): the client keeps \(client[Flags.maxRetries])")
    say(client.details(Flags.maxRetries).description)

    server.failAll(with: FetchError(.transport, retry: .backoff, message: "connection refused"))
    do {
        _ = try await client.refresh(force: true)
    } catch {
        say("6. Server down: \(error); reads still return greeting=\"\(client[Flags.greeting])\"")
    }

    qa.set("greeting", value: .string("QA build"))
    var updates = client.watch(Flags.greeting).makeAsyncIterator()
    _ = await updates.next()
    say("7. A QA override wins: greeting=\"\(client[Flags.greeting])\" from \(client.details(Flags.greeting).layer)")

    let relaunched = try RemoteConfigClient.builder(fetcher: server).cache(cache).clock(clock)
        .register(Flags.newCheckout, Flags.maxRetries, Flags.greeting).build()
    say("8. After a relaunch, the first read already sees the cache: new_checkout=\(relaunched[Flags.newCheckout])")
} catch {
    say("error: \(error)")
    exit(1)
}
