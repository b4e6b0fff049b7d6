import ConfigDomain
import ConfigPorts
import Foundation

/// Wraps a fetcher and records each exchange (what was sent, what came back, how long it took),
/// so `fetch` can print the status, validators, size and time of the real request the client made.
final class RecordingFetcher: ConfigFetcher {
    /// One call of the wrapped fetcher.
    struct Exchange: Sendable {
        /// The validators the client sent (empty for an unconditional fetch).
        var sent: Validators
        /// What came back.
        var outcome: Outcome
        /// Seconds from the call to its answer.
        var duration: TimeInterval
    }

    /// A fetcher's answer.
    enum Outcome: Sendable {
        /// New bytes (HTTP 200).
        case modified(FetchedPayload)
        /// Unchanged (HTTP 304), with the validators that came with it.
        case notModified(Validators)
        /// A typed failure.
        case failed(FetchError)
    }

    private let inner: any ConfigFetcher
    private let recorded = Locked<[Exchange]>([])

    /// Wraps `inner`.
    init(_ inner: any ConfigFetcher) { self.inner = inner }

    /// The exchanges so far, oldest first.
    var exchanges: [Exchange] { recorded.current }

    func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchResult {
        let start = DispatchTime.now().uptimeNanoseconds
        func elapsed() -> TimeInterval { TimeInterval(DispatchTime.now().uptimeNanoseconds - start) / 1e9 }
        do throws(FetchError) {
            let result = try await inner.fetch(request)
            let outcome: Outcome =
                switch result {
                case .modified(let payload): .modified(payload)
                case .notModified(let validators): .notModified(validators)
                }
            record(Exchange(sent: request.validators, outcome: outcome, duration: elapsed()))
            return result
        } catch {
            record(Exchange(sent: request.validators, outcome: .failed(error), duration: elapsed()))
            throw error
        }
    }

    private func record(_ exchange: Exchange) {
        recorded.withLock { $0.append(exchange) }
    }
}
