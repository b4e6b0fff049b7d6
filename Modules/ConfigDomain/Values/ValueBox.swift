/// One typed value in a class instance, so values of many types can share one array (a client's
/// resolved state holds one per registered key).
///
/// `@usableFromInline package`: the client's inlinable read path downcasts to it in the caller's module.
@usableFromInline
package final class ValueBox<Value: Sendable>: Sendable {
    /// The value.
    @usableFromInline package let value: Value

    /// Boxes `value`.
    @inlinable
    package init(_ value: Value) { self.value = value }
}
