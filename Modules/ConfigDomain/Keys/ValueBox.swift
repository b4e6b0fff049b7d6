import Foundation

/// One resolved value of a key's type, so that values of many types share one array in a client's state.
@usableFromInline
package final class ValueBox<Value: Sendable>: Sendable {
    @usableFromInline package let value: Value

    @inlinable
    package init(_ value: Value) { self.value = value }

    /// The value in `box` when it is a `ValueBox<Value>`, else nil.
    ///
    /// Part of the read path: the class check and `unsafeDowncast` read the box without retaining
    /// it (a dynamic cast would retain it, a write to memory every reading thread shares).
    @inlinable
    package static func value(in box: AnyObject) -> Value? {
        guard ObjectIdentifier(type(of: box)) == ObjectIdentifier(ValueBox<Value>.self) else { return nil }
        return unsafeDowncast(box, to: ValueBox<Value>.self).value
    }

    /// The value in a box this key's converter made (``ValueConverter`` boxes a `Value`).
    package static func unbox(_ box: any AnyObject & Sendable) -> Value {
        unsafeDowncast(box, to: ValueBox<Value>.self).value
    }

    /// Whether `a` and `b` both hold a `Value` and `isEqual` finds the two equal.
    @inlinable
    package static func equal(_ a: AnyObject, _ b: AnyObject, by isEqual: (Value, Value) -> Bool) -> Bool {
        let type = ObjectIdentifier(ValueBox<Value>.self)
        guard ObjectIdentifier(Swift.type(of: a)) == type, ObjectIdentifier(Swift.type(of: b)) == type else { return false }
        return isEqual(unsafeDowncast(a, to: ValueBox<Value>.self).value, unsafeDowncast(b, to: ValueBox<Value>.self).value)
    }
}
