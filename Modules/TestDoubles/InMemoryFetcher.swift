import ConfigDomain
import ConfigPorts
import Foundation

/// A fetcher that serves a payload held in memory, answers conditional requests, fails on demand and records every request.
///
/// Its ETag is strong and derived from the payload's ``ContentHash`` (`"fnv1a-<hex>-<length>"`),
/// so serving the same bytes again keeps the ETag and serving new bytes changes it. A request whose
/// `validators.etag` matches the current ETag (also in its weak `W/` form) gets
/// ``FetchResult/notModified(_:)``; any other request gets ``FetchResult/modified(_:)``.
/// `lastModified` is neither sent nor honoured.
///
/// Holds: ``holdNext()`` makes the next fetch wait, before answering, until the test releases it.
///
/// Failures: errors queued with ``failNext(_:times:)`` are thrown first, one per fetch; then, while
/// set, the error given to ``failAll(with:)``. A fetch whose task is cancelled throws
/// ``FetchError/cancelled`` before anything else (its request is still recorded).
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

    private let state: LockedState<State>

    /// Serves `payload` as if it came from `source`.
    public init(payload: Data, source: String = "memory://config", contentType: String? = "application/json") {
        state = LockedState(
            State(payload: payload, etag: Self.etag(for: payload), source: source, contentType: contentType))
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
        guard times > 0 else { return }
        state.withLock { $0.queuedFailures += Array(repeating: error, count: times) }
    }

    /// Makes every fetch throw `error` (after queued ``failNext(_:times:)`` failures); `nil` stops it.
    public func failAll(with error: FetchError?) {
        state.withLock { $0.permanentFailure = error }
    }

    /// Makes the next fetch without a hold wait at the returned hold; it answers from the state current at release.
    ///
    /// Each call holds one more fetch, in order. A fetch cancelled while held throws
    /// ``FetchError/cancelled`` promptly.
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
        if let hold { try await hold.pass() }
        let outcome = state.withLock { state -> Result<FetchResult, FetchError> in
            if !state.queuedFailures.isEmpty { return .failure(state.queuedFailures.removeFirst()) }
            if let failure = state.permanentFailure { return .failure(failure) }
            let validators = Validators(etag: state.etag)
            if let held = request.validators.etag, Self.strip(held) == state.etag {
                return .success(.notModified(validators))
            }
            return .success(
                .modified(
                    FetchedPayload(
                        bytes: state.payload, validators: validators, contentType: state.contentType,
                        source: state.source)))
        }
        return try outcome.get()
    }

    /// `"fnv1a-<16 hex digits>-<length>"`, a strong ETag from the content hash.
    static func etag(for payload: Data) -> String {
        let hash = ContentHash(of: payload)
        let hex = String(hash.value, radix: 16)
        return "\"fnv1a-" + String(repeating: "0", count: 16 - hex.count) + hex + "-\(hash.byteCount)\""
    }

    /// The ETag without a weak `W/` prefix.
    private static func strip(_ etag: String) -> String {
        etag.hasPrefix("W/") ? String(etag.dropFirst(2)) : etag
    }
}
