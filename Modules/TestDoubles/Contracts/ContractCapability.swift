import Foundation

/// Something an adapter declares it cannot do, so the contract checks that need it are reported as skipped.
///
/// A missing hook without the matching declared capability fails the check, naming both.
public struct ContractCapability: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The capability's name, for example `noValidators`.
    public var rawValue: String

    /// Creates a capability from its name.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The name.
    public var description: String { rawValue }

    // MARK: Fetcher

    /// The fetcher has no validators: an unchanged payload comes back as a byte-identical `modified`.
    public static let noValidators = ContractCapability(rawValue: "noValidators")
    /// The backend cannot hold a request in flight (no `hold` hook): in-flight cancellation is not checked.
    public static let cannotHold = ContractCapability(rawValue: "cannotHold")
    /// The backend cannot be made to fail (no `setFault` hook): error checks are not run.
    public static let noFaultInjection = ContractCapability(rawValue: "noFaultInjection")
    /// The backend cannot fail permanently (only temporarily): the non-retryable error check is not run.
    public static let noPermanentFailure = ContractCapability(rawValue: "noPermanentFailure")
    /// Requests reaching the backend cannot be counted (no `requestCount` hook): the no-retry check is not run.
    public static let uncountedRequests = ContractCapability(rawValue: "uncountedRequests")
    /// The fetcher holds no secret (no token, no key): the secret-leak check is not run.
    public static let noSecrets = ContractCapability(rawValue: "noSecrets")

    // MARK: Snapshot cache

    /// Payload bytes written cannot be measured (no `payloadBytesWritten` hook): renewal's "no payload rewrite" is not checked.
    public static let unmeasuredWrites = ContractCapability(rawValue: "unmeasuredWrites")
    /// Stored data cannot be damaged on purpose (no `damage` hook): the damaged-data check is not run.
    public static let cannotDamageData = ContractCapability(rawValue: "cannotDamageData")
    /// Writes cannot be made to fail (no `failWrites` hook): the failed-write check is not run.
    public static let noWriteFaults = ContractCapability(rawValue: "noWriteFaults")

    // MARK: Override source

    /// The source never changes after it is made (environment, launch arguments): change checks are not run.
    public static let immutable = ContractCapability(rawValue: "immutable")
    /// The source cannot hold malformed input (no `makeSourceWithMalformedEntry` hook): problem reporting is not checked.
    public static let noMalformedInput = ContractCapability(rawValue: "noMalformedInput")
}
