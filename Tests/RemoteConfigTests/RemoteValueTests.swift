import ConfigDomain
import ConfigPorts
import Foundation
import RemoteConfig
import RemoteConfigApp
import TestDoubles
import Testing

/// Screen settings read through the property wrapper, from a client given explicitly.
struct CheckoutSettings {
    @RemoteValue var newCheckout: Bool
    @RemoteValue var retries: Int

    init(client: RemoteConfigClient) {
        _newCheckout = RemoteValue(Keys.flag, client: client)
        _retries = RemoteValue(Keys.retries, client: client)
    }
}

/// Settings read through the process default client.
struct DefaultClientSettings {
    @RemoteValue(EnumNamedKeys.timeout) var timeout
}

@Suite("@RemoteValue", .serialized)
struct RemoteValueTests {
    @Test("the wrapper reads the key from the client it was given, and follows refreshes")
    func readsGivenClient() async throws {
        let fetcher = InMemoryFetcher(json: payload(flag: true, retries: 5))
        let client = try RemoteConfigBuilder.testing(fetcher: fetcher, clock: ManualClock()).build()
        let settings = CheckoutSettings(client: client)
        #expect(settings.newCheckout == false)
        #expect(settings.retries == 3)
        try await client.refresh()
        #expect(settings.newCheckout == true)
        #expect(settings.retries == 5)
    }

    @Test("its projected value streams the current value, then each change")
    func streams() async throws {
        let fetcher = InMemoryFetcher(json: payload(retries: 5))
        let client = try RemoteConfigBuilder.testing(fetcher: fetcher, clock: ManualClock()).build()
        let settings = CheckoutSettings(client: client)
        var values = settings.$retries.makeAsyncIterator()
        #expect(await values.next() == 3)
        try await client.refresh()
        #expect(await values.next() == 5)
        fetcher.serve(json: payload(retries: 8))
        try await client.refresh()
        #expect(await values.next() == 8)
    }

    @Test("without a client it reads the process default, and the key's default before one is installed")
    func processDefault() async throws {
        let settings = DefaultClientSettings()
        RemoteConfigClient.processDefault = nil
        #expect(settings.timeout == 30.0)
        var fallback = settings.$timeout.makeAsyncIterator()
        #expect(await fallback.next() == 30.0)
        #expect(await fallback.next() == nil)

        let fetcher = InMemoryFetcher(json: #"{"server.timeout": 2.5}"#)
        let client = try RemoteConfigClient.builder(fetcher: fetcher).register { EnumNamedKeys.timeout }.build()
        RemoteConfigClient.processDefault = client
        defer { RemoteConfigClient.processDefault = nil }
        try await client.refresh()
        #expect(settings.timeout == 2.5)
        #expect(RemoteConfigClient.processDefault === client)
    }
}
