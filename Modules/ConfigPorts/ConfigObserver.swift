import ConfigDomain
import Foundation

/// Receives a client's events, for logging or metrics. Called synchronously: return quickly.
public protocol ConfigObserver: Sendable {
    /// Handles one event.
    func receive(_ event: ConfigEvent)
}

/// An observer made from a closure.
public struct ClosureObserver: ConfigObserver {
    private let handler: @Sendable (ConfigEvent) -> Void

    /// Creates an observer that calls `handler` for each event.
    public init(_ handler: @escaping @Sendable (ConfigEvent) -> Void) { self.handler = handler }

    /// Calls the closure.
    public func receive(_ event: ConfigEvent) { handler(event) }
}
