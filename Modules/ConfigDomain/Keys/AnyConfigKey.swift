import Foundation

/// A ``ConfigKey`` with its value type erased: its name, its identity, and the work on its
/// values that the key compiled for its type when it was created.
///
/// Clients register keys in this form (see ``ConfigKeyRepresentable/anyConfigKey``), so keys of
/// many value types sit in one list and resolve without generic code.
public struct AnyConfigKey: Sendable {
    /// The conversion, rules and default behind non-generic functions.
    package let erased: ErasedKey

    /// The key's name in payloads.
    public var name: String { erased.name }
    /// The key's process-unique identity.
    public var identity: KeyIdentity { erased.identity }
    /// The key's descriptor: name, type name, default, rule names, secrecy and summary.
    public var descriptor: KeyDescriptor { erased.descriptor }

    @usableFromInline
    init(_ erased: ErasedKey) { self.erased = erased }
}
