import ConfigDomain
import ConfigPorts
import Foundation
import TestDoubles

// Deliberately broken fetchers, each wrapping an InMemoryFetcher backend and breaking one rule
// of the fetcher contract, to prove the suite catches it.

/// The contract for a fetcher in front of `backend`, with every hook wired to the backend.
func contract(
    _ subject: String, backend: InMemoryFetcher, capabilities: Set<ContractCapability> = [.noSecrets],
    secrets: [String] = [], cancellationBound: TimeInterval = 2, timeLimit: TimeInterval = 30,
    fetcher: @escaping @Sendable () -> any ConfigFetcher
) -> FetcherContract {
    FetcherContract(
        subject: subject, capabilities: capabilities,
        makeFetcher: fetcher,
        serve: { backend.serve(payload: $0) },
        setFault: { fault in
            switch fault {
            case .temporary?:
                backend.failAll(with: FetchError(.transport, retry: .backoff, message: "connection refused by backend"))
            case .permanent?:
                backend.failAll(with: FetchError(.httpStatus(404), retry: .doNotRetry, message: "no such config"))
            case nil:
                backend.failAll(with: nil)
            }
        },
        hold: { ContractHold(backend.holdNext()) },
        requestCount: { backend.fetchCount },
        secrets: secrets, timeLimit: timeLimit, cancellationBound: cancellationBound)
}

/// Drops the request's validators, so it always answers `modified`.
struct IgnoresValidatorsFetcher: ConfigFetcher {
    let backend: InMemoryFetcher
    func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchResult {
        try await backend.fetch(FetchRequest(validators: .none, configurationName: request.configurationName))
    }
}

/// Answers `notModified` to any request once it has answered once: decides from private state.
final class RemembersLastAnswerFetcher: ConfigFetcher {
    let backend: InMemoryFetcher
    private let answered = Flag()
    init(backend: InMemoryFetcher) { self.backend = backend }
    func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchResult {
        let result = try await backend.fetch(request)
        if answered.isSet, case .modified(let payload) = result { return .notModified(payload.validators) }
        answered.set()
        return result
    }
}

/// Turns cancellation into "not modified".
struct SwallowsCancellationFetcher: ConfigFetcher {
    let backend: InMemoryFetcher
    func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchResult {
        do throws(FetchError) {
            return try await backend.fetch(request)
        } catch  where error.kind == .cancelled {
            return .notModified(.none)
        }
    }
}

/// Runs the request in an unstructured task, so cancellation never reaches it.
struct ShieldsCancellationFetcher: ConfigFetcher {
    let backend: InMemoryFetcher
    func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchResult {
        let backend = backend
        let work = Task { () -> Result<FetchResult, FetchError> in
            do throws(FetchError) {
                return .success(try await backend.fetch(request))
            } catch {
                return .failure(error)
            }
        }
        return try await work.value.get()
    }
}

/// Reports every failure as `.other`, "do not retry", with no detail.
struct UntypedErrorsFetcher: ConfigFetcher {
    let backend: InMemoryFetcher
    func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchResult {
        do throws(FetchError) {
            return try await backend.fetch(request)
        } catch {
            throw FetchError(.other, retry: .doNotRetry, message: "fetch failed")
        }
    }
}

/// Says "retry with backoff" for every failure, even a permanent one.
struct AlwaysRetryableFetcher: ConfigFetcher {
    let backend: InMemoryFetcher
    func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchResult {
        do throws(FetchError) {
            return try await backend.fetch(request)
        } catch {
            throw FetchError(error.kind, retry: .backoff, message: error.message)
        }
    }
}

/// Puts its bearer token in error messages.
struct LeaksSecretFetcher: ConfigFetcher {
    let backend: InMemoryFetcher
    let token: String
    func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchResult {
        do throws(FetchError) {
            return try await backend.fetch(request)
        } catch {
            throw FetchError(
                error.kind, retry: error.retry, message: "\(error.message) (sent Authorization: Bearer \(token))")
        }
    }
}

/// Retries retryable failures itself, three attempts in all.
struct RetriesOnItsOwnFetcher: ConfigFetcher {
    let backend: InMemoryFetcher
    func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchResult {
        var attempt = 1
        while true {
            do throws(FetchError) {
                return try await backend.fetch(request)
            } catch  where error.isRetryable && attempt < 3 {
                attempt += 1
            }
        }
    }
}

/// Re-encodes the payload instead of returning the bytes as received.
struct ReencodingFetcher: ConfigFetcher {
    let backend: InMemoryFetcher
    func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchResult {
        guard case .modified(var payload) = try await backend.fetch(request) else {
            return try await backend.fetch(request)
        }
        payload.bytes = Data((String(decoding: payload.bytes, as: UTF8.self) + "\n").utf8)
        return .modified(payload)
    }
}

/// Takes any validators as proof the client is current: answers `notModified` whenever an ETag is sent.
struct AnyETagIsCurrentFetcher: ConfigFetcher {
    let backend: InMemoryFetcher
    func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchResult {
        if request.validators.etag != nil { return .notModified(request.validators) }
        return try await backend.fetch(request)
    }
}

/// Stamps a sequence number into every ETag it returns (like a server stamping its response time),
/// and compares only the content part, so one unchanged payload gets a different ETag on every fetch.
final class StampedETagFetcher: ConfigFetcher {
    let backend: InMemoryFetcher
    private let sequence = Counter()
    init(backend: InMemoryFetcher) { self.backend = backend }
    func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchResult {
        var plain = request
        plain.validators.etag = request.validators.etag.map { etag in String(etag.prefix { $0 != "#" }) }
        switch try await backend.fetch(plain) {
        case .notModified(let validators):
            return .notModified(validators)
        case .modified(var payload):
            sequence.increment()
            payload.validators.etag = payload.validators.etag.map { "\($0)#\(sequence.value)" }
            return .modified(payload)
        }
    }
}
