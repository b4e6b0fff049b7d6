import ConfigDomain
import Foundation

/// The targeting payload the context-change benchmark and `ReadProbe context` share: `count` keys
/// in the native dialect (Bool `flag_N` and String `text_N` in turn), each with three rules, and two
/// contexts under which most keys take different values.
package enum TargetingWorkload {
    /// The key named `flag_N` or `text_N`: a Bool for even `N`, a String for odd.
    package static func isFlag(_ index: Int) -> Bool { index % 2 == 0 }

    /// `flag_N` or `text_N`.
    package static func name(_ index: Int) -> String { isFlag(index) ? "flag_\(index)" : "text_\(index)" }

    /// The payload: a country rule (ten countries), a plan-and-age rule, and an app-version rule (five versions).
    package static func json(count: Int) -> String {
        var entries: [String] = []
        for index in 0..<count {
            let values = isFlag(index) ? ["true", "true", "true", "false"] : [#""a""#, #""b""#, #""c""#, #""d""#]
            entries.append(
                #"""
                "\#(name(index))": {"default": \#(values[3]), "rules": [
                  {"id": "country", "when": {"country": "C\#(index % 10)"}, "value": \#(values[0])},
                  {"id": "paid-adults", "when": {"plan": {"$in": ["pro", "team"]}, "age": {"$gte": 18}}, "value": \#(values[1])},
                  {"id": "new-app", "when": {"app.version": {"$vgte": "2.\#(index % 5).0"}}, "value": \#(values[2])}]}
                """#)
        }
        return #"{"targeting": {"# + entries.joined(separator: ",\n") + "}}"
    }

    /// Two contexts that give most keys different values.
    package static let contexts = [
        EvaluationContext(
            targetingKey: "u1", attributes: ["country": "C3", "plan": "free", "age": 30, "app": ["version": "2.4.1"]]),
        EvaluationContext(
            targetingKey: "u2", attributes: ["country": "C7", "plan": "pro", "age": 30, "app": ["version": "1.0.0"]]),
    ]
}

/// What a server's benchmarks read: keys of ``TargetingWorkload``'s payload, declared here as an app
/// declares them (`static let`, in a module of their own), and requests' contexts.
package enum ServerWorkload {
    /// A Bool key with three rules (country, plan and age, app version).
    package static let checkout = ConfigKey(TargetingWorkload.name(0), default: false)
    /// A String key with three rules.
    package static let copy = ConfigKey(TargetingWorkload.name(1), default: "none")

    /// `count` requests' contexts: random ids, ten countries, two plans, ages and app versions, from a fixed seed.
    package static func contexts(count: Int) -> [EvaluationContext] {
        var state: UInt64 = 31
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        return (0..<count).map { _ in
            EvaluationContext(
                targetingKey: "user-\(next(1_000_000))",
                attributes: [
                    "country": .string("C\(next(10))"), "plan": next(2) == 0 ? "free" : "pro", "age": .int(Int64(16 + next(40))),
                    "app": ["version": .string("2.\(next(6)).0")],
                ])
        }
    }
}
