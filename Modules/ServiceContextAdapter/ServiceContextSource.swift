import ConfigDomain
import ConfigPorts
import ServiceContextModule

/// An `EvaluationContextSource` that reads the evaluation context of the calling task's
/// `ServiceContext`: the request's user, put there by a server's middleware.
///
/// ```swift
/// let client = try RemoteConfigClient.builder(fetcher: fetcher)
///     .payloadFormat(TargetingJSONFormat())
///     .contextSource(ServiceContextSource())
///     .build()
///
/// // In a middleware, around the rest of the request:
/// var context = ServiceContext.current ?? .topLevel
/// context.evaluationContext = EvaluationContext(targetingKey: userID)
/// return try await ServiceContext.withValue(context) { try await next(request, requestContext) }
///
/// // In a handler: evaluated for the request's user.
/// let enabled = client[Flags.newCheckout]
/// ```
///
/// Outside any `ServiceContext`, or in one without an evaluation context, it answers nil and the
/// client serves its own context's values. Child tasks and task groups inherit the task-local
/// context; an unstructured `Task { }` inherits it too, a detached task does not.
public struct ServiceContextSource: EvaluationContextSource {
    /// A source reading `ServiceContext.current`.
    public init() {}

    /// The evaluation context of the calling task's `ServiceContext`, or nil when it has none.
    public var currentContext: EvaluationContext? { ServiceContext.current?.evaluationContext }
}
