import Foundation

/// Why one watch stream (or the read before it) ended, and so what the watcher does next.
enum WatchEnd: Error, Sendable {
    /// The revision to carry on from was compacted: read the keys again, then watch from there.
    case compacted
    /// This endpoint cannot serve now (gone, no leader, no answer in time): try the next one.
    case endpoint(String)
    /// A live watch stayed silent past the idle timeout: reopen it on the next endpoint. It may only
    /// have been quiet, so this alone is not reported as a lost connection.
    case silent(String)
    /// etcd refused this token (`nil`: none was sent): get a new one, then watch again.
    case tokenRejected(String?)
    /// A failure no other endpoint would change (credentials refused, permission denied): wait, then try again.
    case failed(EtcdError)
    /// The consumer went away.
    case cancelled

    /// Whether the watcher carries on at once without having lost anything a person should hear of:
    /// a quiet watch reopened, or a token replaced.
    var isRoutine: Bool {
        switch self {
        case .silent, .tokenRejected: true
        case .compacted, .endpoint, .failed, .cancelled: false
        }
    }

    /// Why the watch is down, for the `.disconnected` report.
    var reason: String {
        switch self {
        case .compacted: "the revision to watch from was compacted"
        case .endpoint(let reason), .silent(let reason): reason
        case .tokenRejected: "etcd refused the authentication token"
        case .failed(let error): error.message
        case .cancelled: "cancelled"
        }
    }
}
