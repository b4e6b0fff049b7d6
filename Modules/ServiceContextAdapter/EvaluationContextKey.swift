import ConfigDomain
import ServiceContextModule

/// The key under which a `ServiceContext` carries the evaluation context of its work (a request's user).
///
/// Read and write it through `ServiceContext.evaluationContext`.
public enum EvaluationContextKey: ServiceContextKey {
    /// The value the key carries: the user a request's reads are evaluated for.
    public typealias Value = EvaluationContext

    /// The key's name when a `ServiceContext` is printed.
    public static var nameOverride: String? { "remote-config.evaluation-context" }
}

extension ServiceContext {
    /// The evaluation context carried by this service context, or nil when it carries none.
    ///
    /// ```swift
    /// var context = ServiceContext.current ?? .topLevel
    /// context.evaluationContext = EvaluationContext(targetingKey: userID, attributes: ["country": "DE"])
    /// try await ServiceContext.withValue(context) { try await next(request, requestContext) }
    /// ```
    public var evaluationContext: EvaluationContext? {
        get { self[EvaluationContextKey.self] }
        set { self[EvaluationContextKey.self] = newValue }
    }
}
