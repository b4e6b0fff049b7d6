import Foundation

/// Something a user did that an experiment measures (a purchase, a click), sent with
/// `RemoteConfigClient.track(_:value:attributes:)` to the client's observers as `ConfigEvent.tracked(_:)`.
public struct TrackedEvent: Sendable, Hashable, CustomStringConvertible {
    /// The event's name, for example `checkout_completed`.
    public var name: String
    /// A number the event carries, for example an amount.
    public var value: Double?
    /// Further details of the event.
    public var attributes: [String: ConfigValue]
    /// The context the event happened in: the request's, or the client's own.
    public var context: EvaluationContext

    /// Creates a tracked event.
    public init(name: String, value: Double? = nil, attributes: [String: ConfigValue] = [:], context: EvaluationContext) {
        self.name = name
        self.value = value
        self.attributes = attributes
        self.context = context
    }

    /// `checkout_completed = 42.5 for u1`.
    public var description: String {
        "\(name)\(value.map { " = \($0)" } ?? "") for \(context.targetingKey ?? "no targeting key")"
    }
}
