/// One resolved, converted, validated value, boxed so a state can hold keys of any type in one array.
///
/// `@usableFromInline` so the inlinable read path can be specialized in the caller's module.
@usableFromInline
final class ValueBox<Value: Sendable>: Sendable {
    @usableFromInline let value: Value

    @usableFromInline
    init(_ value: Value) { self.value = value }
}
