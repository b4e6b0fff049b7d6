import ConfigDomain
import ConfigPorts
import Foundation
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
    var configuration = HTTPFetcher.Configuration(timeout: 10, now: { fixedNow })
    change(&configuration)
    return configuration
}

/// Counts bytes a test server handed to FlyingFox. `@unchecked Sendable`: `value` is guarded by `lock`.
final class ByteCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func add(_ count: Int) {
        lock.lock()
        value += count
        lock.unlock()
    }
    var total: Int {
        lock.lock()
        defer { lock.unlock() }
        return value
    }
}

/// Signals once that something happened, to a test awaiting it (never a sleep).
final class Signal: @unchecked Sendable {
    // `@unchecked Sendable`: `fired` and `waiter` are guarded by `lock`.
    private let lock = NSLock()
    private var fired = false
    private var waiter: CheckedContinuation<Void, Never>?

    func fire() {
        lock.lock()
        fired = true
        let waiting = waiter
        waiter = nil
        lock.unlock()
        waiting?.resume()
    }

    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            lock.lock()
            if fired {
                lock.unlock()
                continuation.resume()
            } else {
                waiter = continuation
                lock.unlock()
            }
        }
    }
}
