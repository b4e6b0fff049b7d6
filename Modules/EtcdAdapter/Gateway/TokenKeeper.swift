import ConfigPorts
import Foundation

/// The token a ``Gateway`` sends, and its one authentication in flight: calls that need a token at
/// the same time wait for the same `/v3/auth/authenticate` (etcd hashes the password for each
/// one, slowly on purpose). A caller whose task is cancelled stops waiting at once.
final class TokenKeeper: Sendable {
    /// Which token a call wants.
    enum Need: Sendable, Equatable {
        /// The current token, fetched first if there is none yet.
        case current
        /// Another token than this one, which etcd refused (`nil`: the call sent none).
        case replacing(String?)
    }

    typealias Outcome = Result<String?, Gateway.Failure>

    private enum Stored: Sendable {
        /// No credentials, or the cluster has authentication turned off.
        case notNeeded
        /// Not fetched yet, or the last authentication failed.
        case unknown
        case value(String)
    }

    private struct State {
        var stored: Stored
        /// The callers waiting for the authentication in flight; `nil` when none is.
        var waiting: [UInt64: CheckedContinuation<Outcome, Never>]?
        var nextID: UInt64 = 0
    }

    private let state: Locked<State>

    /// A keeper for a gateway with credentials (`needsToken`) or without.
    init(needsToken: Bool) {
        state = Locked(State(stored: needsToken ? .unknown : .notNeeded))
    }

    /// The token to send: the stored one when it suits `need`, or the outcome of the
    /// authentication in flight, or of a new one made with `authenticate`.
    func token(_ need: Need, authenticate: @escaping @Sendable () async -> Outcome) async -> Outcome {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Outcome, Never>) in
                enum Next { case answer(Outcome), wait, start }
                let next = state.withLock { state -> Next in
                    if Task.isCancelled { return .answer(.failure(.final(.cancelled))) }
                    if state.waiting != nil {
                        state.waiting?[id] = continuation
                        return .wait
                    }
                    switch state.stored {
                    case .value(let token) where need != .replacing(token): return .answer(.success(token))
                    case .notNeeded where need == .current: return .answer(.success(nil))
                    default:
                        state.waiting = [id: continuation]
                        return .start
                    }
                }
                switch next {
                case .answer(let outcome): continuation.resume(returning: outcome)
                case .wait: break
                case .start: Task { self.finish(await authenticate()) }
                }
            }
        } onCancel: {
            state.withLock { $0.waiting?.removeValue(forKey: id) }?.resume(returning: .failure(.final(.cancelled)))
        }
    }

    /// Keeps the outcome of an authentication and hands it to everyone waiting.
    private func finish(_ outcome: Outcome) {
        let waiting = state.withLock { state in
            switch outcome {
            case .success(let token?): state.stored = .value(token)
            case .success(nil): state.stored = .notNeeded
            case .failure: state.stored = .unknown
            }
            defer { state.waiting = nil }
            return state.waiting ?? [:]
        }
        for continuation in waiting.values { continuation.resume(returning: outcome) }
    }
}
