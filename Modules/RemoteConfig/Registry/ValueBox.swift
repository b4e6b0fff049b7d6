/// One resolved, converted, validated value, boxed so a state can hold keys of any type in one array.
final class ValueBox<Value: Sendable>: Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
