import Foundation

/// The operations of a key, compiled for its value type: each takes the key's
/// ``TypedKeyFunctions`` as its first argument.
///
/// Made on demand by ``ErasedKey/operations`` (six function values on the stack; none captures
/// anything, so making them allocates nothing).
@usableFromInline
struct KeyOperations {
    @usableFromInline let resolveValue: (AnyObject, ConfigValue, String) -> ErasedKey.Outcome
    @usableFromInline let resolveText: (AnyObject, String, String) -> ErasedKey.Outcome
    @usableFromInline let render: (AnyObject, AnyObject) -> String
    @usableFromInline let defaultBox: (AnyObject) -> any AnyObject & Sendable
    @usableFromInline let defaultRaw: (AnyObject) -> ConfigValue?
    @usableFromInline let descriptor: (AnyObject) -> KeyDescriptor

    /// The operations for keys of type `Value`.
    @inlinable
    init<Value: Sendable>(for type: Value.Type) {
        resolveValue = { functions, value, origin in
            unsafeDowncast(functions, to: TypedKeyFunctions<Value>.self).resolve(value, origin: origin)
        }
        resolveText = { functions, text, origin in
            unsafeDowncast(functions, to: TypedKeyFunctions<Value>.self).resolve(text: text, origin: origin)
        }
        render = { functions, box in
            unsafeDowncast(functions, to: TypedKeyFunctions<Value>.self).render(box)
        }
        defaultBox = { functions in
            ValueBox(unsafeDowncast(functions, to: TypedKeyFunctions<Value>.self).defaultValue)
        }
        defaultRaw = { functions in
            unsafeDowncast(functions, to: TypedKeyFunctions<Value>.self).defaultRaw
        }
        descriptor = { functions in
            unsafeDowncast(functions, to: TypedKeyFunctions<Value>.self).descriptor
        }
    }
}
