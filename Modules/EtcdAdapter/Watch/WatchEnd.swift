import Foundation

/// Why one watch stream (or the read before it) ended, and so what the watcher does next.
enum WatchEnd: Error, Sendable {
    /// The revision to carry on from was compacted: read the keys again, then watch from there.
    case compacted
    /// This endpoint cannot serve now (gone, no leader, silent for too long): try the next one.
    case endpoint(String)
    /// etcd refused this token (`nil`: none was sent): get a new one, then watch again.
    case tokenRejected(String?)
    /// A failure no other endpoint would change (credentials refused, permission denied): wait, then try again.
    case failed(EtcdError)
    /// The consumer went away.
    case cancelled
}
