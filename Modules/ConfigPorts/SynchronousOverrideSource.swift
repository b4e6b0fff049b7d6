import ConfigDomain
import Foundation

/// An ``OverrideSource`` that can also answer on the calling thread, so that
/// `RemoteConfigBuilder.buildSynchronously()` can apply it before the client's first read.
///
/// The contract (checked by `OverrideSourceContract` in `TestDoubles` when the source conforms):
/// ``overridesSynchronously(for:)`` returns what ``OverrideSource/overrides(for:)`` would return
/// at that moment, or, when part of the source can only be read asynchronously, what it can read
/// now with a problem that says what is missing (its ``OverrideSource/changes(for:)`` stream then
/// delivers the whole state).
public protocol SynchronousOverrideSource: OverrideSource {
    /// The current overrides for the given keys, read on the calling thread.
    func overridesSynchronously(for keys: [KeyDescriptor]) -> OverrideSnapshot
}
