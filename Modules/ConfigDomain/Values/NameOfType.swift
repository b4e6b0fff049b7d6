/// The name of a type as messages show it (`Bool`, `Theme`, `Array<Int>`), without its module.
///
/// The same text as `String(describing: type)`, without the printing machinery behind that:
/// it asks the Swift runtime whether the metatype conforms to each printing protocol, and in a
/// fresh process every such first question scans all the conformance records of every loaded
/// library (about 0.1 ms each on Linux). Key creation, registration and decoding name types.
@inlinable
package func nameOfType<T>(_ type: T.Type) -> String { _typeName(type, qualified: false) }
