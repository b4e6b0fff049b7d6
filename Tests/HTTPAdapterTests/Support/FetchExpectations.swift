import ConfigDomain
import ConfigPorts
import Foundation
import TestSupport
import Testing

@testable import HTTPAdapter

/// The error `fetcher.fetch(request)` throws, or `nil` (recording an issue) when it succeeds.
func fetchError(
    _ fetcher: HTTPFetcher, _ request: FetchRequest = FetchRequest(), sourceLocation: SourceLocation = #_sourceLocation
) async -> FetchError? {
    do throws(FetchError) {
        let result = try await fetcher.fetch(request)
        Issue.record("expected a FetchError, got \(result)", sourceLocation: sourceLocation)
        return nil
    } catch {
        return error
    }
}

/// The payload of a `.modified` result, or `nil` (recording an issue).
func modifiedPayload(_ result: FetchResult, sourceLocation: SourceLocation = #_sourceLocation) -> FetchedPayload? {
    guard case .modified(let payload) = result else {
        Issue.record("expected .modified, got \(result)", sourceLocation: sourceLocation)
        return nil
    }
    return payload
}

/// A fixed clock for `Retry-After: <seconds>`.
let fixedNow = Date(timeIntervalSince1970: 1_700_000_000)

/// A configuration for loopback tests with a fixed clock and the given changes.
func testConfiguration(_ change: (inout HTTPFetcher.Configuration) -> Void = { _ in }) -> HTTPFetcher.Configuration {
    var configuration = HTTPFetcher.Configuration(timeout: loopbackDeadline, now: { fixedNow })
    change(&configuration)
    return configuration
}
