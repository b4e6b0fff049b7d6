#if canImport(Darwin)
    import Foundation

    /// The data-protection class of the cache's files on Apple platforms (see `FileProtectionType`).
    ///
    /// Choose ``completeUntilFirstUserAuthentication`` (the system's usual default) when the cache
    /// must be readable by background launches before the device is unlocked; ``complete`` makes
    /// the files unreadable while the device is locked, so a background launch then sees a miss.
    public enum DataProtection: String, Sendable, Hashable, CustomStringConvertible {
        /// Readable only while the device is unlocked.
        case complete
        /// Files can be created while locked; one open before locking stays readable and writable.
        case completeUnlessOpen
        /// Readable after the first unlock following a restart.
        case completeUntilFirstUserAuthentication
        /// No protection beyond the volume's (`FileProtectionType.none`; named so that it is never
        /// confused with an absent `DataProtection?`).
        case unprotected

        /// The Foundation value for this class.
        var fileProtectionType: FileProtectionType {
            switch self {
            case .complete: .complete
            case .completeUnlessOpen: .completeUnlessOpen
            case .completeUntilFirstUserAuthentication: .completeUntilFirstUserAuthentication
            case .unprotected: .none
            }
        }

        /// The class's name, for example `complete`.
        public var description: String { rawValue }
    }
#endif
