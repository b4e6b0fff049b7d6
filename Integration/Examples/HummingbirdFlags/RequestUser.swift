import ConfigDomain
import Hummingbird
import ServiceContextAdapter
import ServiceContextModule

/// The user a request is for: the id from the `X-User-ID` header or the `user` query item, the
/// country from `X-Country` or `country`. The id is the targeting key; the country the attribute `country`.
struct RequestUser: Sendable {
    /// The request's user id.
    var id: String
    /// The request's country, if it gave one.
    var country: String?

    /// A header's name (swift-http-types' `HTTPField.Name`, which Hummingbird does not re-export by that name).
    private typealias HeaderName = HTTPFields.Element.Name
    private static let userHeader = HeaderName("X-User-ID")
    private static let countryHeader = HeaderName("X-Country")

    /// The user of `request`, or nil when it names none (an anonymous request, served the defaults).
    init?(_ request: Request) {
        let query = request.uri.queryParameters
        let id = Self.userHeader.flatMap { request.headers[$0] } ?? query.get("user")
        guard let id, !id.isEmpty else { return nil }
        self.id = id
        let country = Self.countryHeader.flatMap { request.headers[$0] } ?? query.get("country")
        self.country = country?.isEmpty == false ? country : nil
    }

    /// The evaluation context the flags are evaluated for.
    var evaluationContext: EvaluationContext {
        EvaluationContext(targetingKey: id, attributes: country.map { ["country": .string($0)] } ?? [:])
    }
}

/// Puts each request's user into its task-local `ServiceContext`, around the rest of the request:
/// every flag read while handling it is evaluated for that user (`ServiceContextSource`).
struct RequestUserMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        guard let user = RequestUser(request) else { return try await next(request, context) }
        var serviceContext = ServiceContext.current ?? .topLevel
        serviceContext.evaluationContext = user.evaluationContext
        return try await ServiceContext.withValue(serviceContext) { try await next(request, context) }
    }
}
