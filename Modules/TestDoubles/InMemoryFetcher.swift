import ConfigDomain
import ConfigPorts
import Foundation

/// A fetcher that serves a payload held in memory, answers conditional requests, fails on demand and records every request.
///
/// Its strong ETag is derived from the payload's ``ContentHash`` (`"fnv1a-<hex>-<length>"`); a request
/// carrying it (also as `W/…`) gets ``FetchResult/notModified(_:)``, any other the payload. A fetch
/// throws, in order: ``FetchError/cancelled`` if its task is cancelled, then the errors queued with
/// ``failNext(_:times:)``, then the one set with ``failAll(with:)``. Every request is recorded.
public final class InMemoryFetcher: ConfigFetcher {
    private struct State {
        var payload: Data
        var etag: String
        var source: String
        var contentType: String?
        var queuedFailures: [FetchError] = []
        var permanentFailure: FetchError?
        var requests: [FetchRequest] = []
        var holds: [FetchHold] = []
    }

    private let state: Locked<State>

    /// Serves `payload` as if it came from `source`.
    public init(payload: Data, source: String = "memory://config", contentType: String? = "application/json") {
        state = Locked(State(payload: payload, etag: Self.etag(for: payload), source: source, contentType: contentType))
    }

    /// Serves the UTF-8 bytes of `json` as if they came from `source`.
    public convenience init(json: String, source: String = "memory://config") {
        self.init(payload: Data(json.utf8), source: source)
    }

    /// Serves `payload` from now on (the ETag changes only if the bytes do).
    public func serve(payload: Data) {
        state.withLock {
            $0.payload = payload
            $0.etag = Self.etag(for: payload)
        }
    }

    /// Serves the UTF-8 bytes of `json` from now on.
    public func serve(json: String) { serve(payload: Data(json.utf8)) }

    /// Makes the next `times` fetches throw `error` (queued after any failures already queued).
    public func failNext(_ error: FetchError, times: Int = 1) {
        state.withLock { $0.queuedFailures += Array(repeating: error, count: max(0, times)) }
    }

    /// Makes every fetch throw `error` (after queued ``failNext(_:times:)`` failures); `nil` stops it.
    public func failAll(with error: FetchError?) { state.withLock { $0.permanentFailure = error } }

    /// Makes the next fetch not yet held wait at the returned hold; it answers from the state current at release.
    public func holdNext() -> FetchHold {
        let hold = FetchHold()
        state.withLock { $0.holds.append(hold) }
        return hold
    }

    /// Every request received, in order (including failed and cancelled ones).
    public var requests: [FetchRequest] { state.withLock { $0.requests } }

    /// How many times ``fetch(_:)`` was called.
    public var fetchCount: Int { state.withLock { $0.requests.count } }

    /// The ETag of the payload currently served.
    public var currentETag: String { state.withLock { $0.etag } }

    /// The payload currently served.
    public var currentPayload: Data { state.withLock { $0.payload } }

    /// Answers `request` from the current payload, or throws the injected failure.
    public func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchResult {
        let hold = try state.withLock { state throws(FetchError) -> FetchHold? in
            state.requests.append(request)
            if Task.isCancelled { throw .cancelled }
            return state.holds.isEmpty ? nil : state.holds.removeFirst()
        }
        try await hold?.pass()
        let outcome = state.withLock { state -> Result<FetchResult, FetchError> in
            if !state.queuedFailures.isEmpty { return .failure(state.queuedFailures.removeFirst()) }
            if let failure = state.permanentFailure { return .failure(failure) }
            let validators = Validators(etag: state.etag)
            if let held = request.validators.etag, held == state.etag || held == "W/" + state.etag {
                return .success(.notModified(validators))
            }
            let payload = FetchedPayload(
                bytes: state.payload, validators: validators, contentType: state.contentType, source: state.source)
            return .success(.modified(payload))
        }
        return try outcome.get()
    }

    /// `"fnv1a-<16 hex digits>-<length>"`, a strong ETag from the content hash.
    static func etag(for payload: Data) -> String {
        let hash = ContentHash(of: payload)
        let hex = String(hash.value, radix: 16)
        return "\"fnv1a-" + String(repeating: "0", count: 16 - hex.count) + hex + "-\(hash.byteCount)\""
    }
}
