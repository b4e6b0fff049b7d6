import Foundation

/// Which kind of build the app runs as: what decides whether release-locked writes are allowed.
public enum BuildKind: Sendable, Hashable {
    /// A debug build: writable keys and the local override store always work.
    case debug
    /// A release build: only keys declared `.writable(inRelease: true)` (and a store allowed in release) take writes.
    case release

    /// The kind this library was compiled as (`DEBUG` defined or not).
    public static var current: BuildKind {
        #if DEBUG
            .debug
        #else
            .release
        #endif
    }
}
