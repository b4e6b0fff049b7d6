import ConfigDomain

/// A registered key with its type erased: the key's own ``ErasedKey``, made when the key was
/// created (compiled for its value type there).
///
/// Registering a key stores that one reference, so registration allocates nothing per key, and
/// resolving it calls functions that are not generic: its name, identity, value type, boxed
/// default, rule problems, descriptor, and the conversion and rules behind `resolveValue`,
/// `resolveText` and `render`.
typealias KeyEntry = ErasedKey
