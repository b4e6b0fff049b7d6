import Foundation

/// One resolved value of a key's type, so that values of many types share one array in a client's state.
@usableFromInline
package final class ValueBox<Value: Sendable>: Sendable {
    @usableFromInline package let value: Value

    @inlinable
    package init(_ value: Value) { self.value = value }

    /// A box holding `value`; the two `Bool` values each share one box.
    @inlinable
    package static func boxing(_ value: Value) -> any AnyObject & Sendable {
        if Value.self == Bool.self, let flag = value as? Bool { return flag ? FlagBoxes.on : FlagBoxes.off }
        return ValueBox(value)
    }

    /// The value in `box` when it is a `ValueBox<Value>`, else nil.
    ///
    /// Part of the read path: the class check and `unsafeDowncast` read the box without retaining
    /// it (a dynamic cast would retain it, a write to memory every reading thread shares).
    @inlinable
    package static func value(in box: AnyObject) -> Value? {
        guard ObjectIdentifier(type(of: box)) == ObjectIdentifier(ValueBox<Value>.self) else { return nil }
        return unsafeDowncast(box, to: ValueBox<Value>.self).value
    }

    /// Whether `a` and `b` both hold a `Value` and `isEqual` finds the two equal.
    @inlinable
    package static func equal(_ a: AnyObject, _ b: AnyObject, by isEqual: (Value, Value) -> Bool) -> Bool {
        let type = ObjectIdentifier(ValueBox<Value>.self)
        guard ObjectIdentifier(Swift.type(of: a)) == type, ObjectIdentifier(Swift.type(of: b)) == type else { return false }
        return isEqual(unsafeDowncast(a, to: ValueBox<Value>.self).value, unsafeDowncast(b, to: ValueBox<Value>.self).value)
    }
}

/// The two shared `Bool` boxes (see ``ValueBox/boxing(_:)``).
@usableFromInline
package enum FlagBoxes {
    @usableFromInline package static let on = ValueBox(true)
    @usableFromInline package static let off = ValueBox(false)
}
