import ConfigDomain
import Foundation

/// Where a client finds the evaluation context of the work under way, such as a server's request,
/// for reads that give no context of their own.
///
/// A server's middleware puts each request's user into a task-local context (swift-service-context's
/// `ServiceContext`, through `ServiceContextAdapter`), and reads inside that request evaluate the
/// targeting rules for it. The contract:
/// - ``currentContext`` answers on the calling task, without I/O, locks or allocation where it can:
///   a client asks on every read that names no context.
/// - It answers nil outside any request: the client's own context (`updateContext`) then applies, and
///   the read is the plain fast read. A key whose value cannot depend on the context is the plain read
///   whatever the source answers.
public protocol EvaluationContextSource: Sendable {
    /// The context of the calling task's work, or nil when it has none.
    var currentContext: EvaluationContext? { get }
}
