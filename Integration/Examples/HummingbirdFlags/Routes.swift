import ConfigDomain
import Foundation
import Hummingbird
import RemoteConfig
import ServiceContextAdapter

/// The answer of `GET /flags`: the user it was evaluated for, the flags, and the generation of the
/// client's state they came from.
struct FlagsAnswer: ResponseEncodable {
    var user: String?
    var country: String?
    var newCheckout: Bool
    var buttonColor: String
    var generation: UInt64

    enum CodingKeys: String, CodingKey {
        case user, country, generation
        case newCheckout = "new_checkout"
        case buttonColor = "button_color"
    }
}

/// The answer of `POST /admin/refresh`: the refresh's outcome and the generation now active, or the error.
struct RefreshAnswer: ResponseEncodable {
    var outcome: String?
    var generation: UInt64
    var error: String?
}

/// The server's routes.
enum Routes {
    /// The router for `client`, evaluating each request's flags the `evaluation` way.
    static func router(client: RemoteConfigClient, evaluation: Options.Evaluation) -> Router<BasicRequestContext> {
        let router = Router()
        switch evaluation {
        case .context:
            router.add(middleware: RequestUserMiddleware())
            router.get("flags") { _, _ -> FlagsAnswer in
                // Plain reads, evaluated for the request's user (the client's ServiceContextSource finds it);
                // one view, so both flags and the generation come from one state even during a refresh.
                let user = ServiceContextSource().currentContext
                let flags = client.view()
                return FlagsAnswer(
                    user: user?.targetingKey, country: user?.attributes["country"]?.stringValue,
                    newCheckout: flags[Flags.newCheckout], buttonColor: flags[Flags.buttonColor], generation: flags.generation)
            }
        case .swap:
            router.get("flags") { request, _ -> FlagsAnswer in
                // THE WRONG WAY (the negative control): the client has one context, and this request
                // overwrites it. By the read after the suspension, another request may have set its own.
                let user = RequestUser(request)
                if let user { client.updateContext { $0 = user.evaluationContext } }
                await Task.yield()
                return FlagsAnswer(
                    user: user?.id, country: user?.country, newCheckout: client[Flags.newCheckout],
                    buttonColor: client[Flags.buttonColor], generation: client.view().generation)
            }
        }
        // The same request as /flags, through the same middleware, answering the same shape, reading no flag:
        // the difference in server CPU between the two is what the two flag reads cost (load/measure.sh).
        router.get("ping") { _, _ -> FlagsAnswer in
            let user = ServiceContextSource().currentContext
            return FlagsAnswer(
                user: user?.targetingKey, country: user?.attributes["country"]?.stringValue,
                newCheckout: Flags.newCheckout.defaultValue, buttonColor: Flags.buttonColor.defaultValue, generation: 0)
        }
        router.post("admin/refresh") { _, _ -> EditedResponse<RefreshAnswer> in
            // Returns once the fetched payload is active (the client activates immediately).
            do {
                let result = try await client.refresh(force: true)
                return EditedResponse(
                    status: .ok, response: RefreshAnswer(outcome: "\(result)", generation: client.view().generation))
            } catch {
                return EditedResponse(
                    status: .badGateway, response: RefreshAnswer(generation: client.view().generation, error: "\(error)"))
            }
        }
        return router
    }
}
