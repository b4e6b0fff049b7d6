import ConfigDomain
import Foundation

/// Values that win over remote configuration: environment variables, launch arguments, a debug menu.
///
/// A source answers for the keys the client registered (so it can map names, such as
/// `new_checkout` to `MYAPP_NEW_CHECKOUT`). It returns raw values or text; the client converts
/// and validates them with each key's own rules, so an override can never set a value a rule rejects.
///
/// The contract (checked by `OverrideSourceContract` in `TestDoubles`):
/// - ``overrides(for:)`` returns the current values and any problems on the calling thread, and
///   never throws (a client is built, overrides applied, without `await`).
/// - ``changes(for:)`` yields the current state first, then a new state after each change,
///   and finishes when the consuming task is cancelled.
public protocol OverrideSource: Sendable {
    /// A short name for provenance, for example `environment` or `launch arguments`.
    var name: String { get }
    /// The current overrides for the given keys.
    func overrides(for keys: [KeyDescriptor]) -> OverrideSnapshot
    /// The current overrides, then each new state after a change.
    func changes(for keys: [KeyDescriptor]) -> AsyncStream<OverrideSnapshot>
}

extension OverrideSource {
    /// A source that never changes: yields its current state once and finishes.
    public func changes(for keys: [KeyDescriptor]) -> AsyncStream<OverrideSnapshot> {
        AsyncStream { continuation in
            continuation.yield(overrides(for: keys))
            continuation.finish()
        }
    }
}

/// The overrides one source holds at one moment.
public struct OverrideSnapshot: Sendable, Hashable {
    /// Override values by key name.
    public var values: [String: OverrideValue]
    /// Problems found while reading the source (a malformed line, an unknown argument).
    public var problems: [String]

    /// Creates a snapshot.
    public init(values: [String: OverrideValue] = [:], problems: [String] = []) {
        self.values = values
        self.problems = problems
    }

    /// No overrides, no problems.
    public static let empty = OverrideSnapshot()
}

/// One override: a value or text to coerce, and exactly where it came from.
public struct OverrideValue: Sendable, Hashable {
    /// A parsed value, or text typed by a person to be coerced to the key's type.
    public typealias Content = CandidateValue

    /// The value or text.
    public var content: Content
    /// Where it came from, for provenance: `MYAPP_NEW_CHECKOUT`, `-rc.new_checkout`, `.env:12`.
    public var origin: String

    /// Creates an override.
    public init(_ content: Content, origin: String) {
        self.content = content
        self.origin = origin
    }
}
