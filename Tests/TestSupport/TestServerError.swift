/// An error of a test server itself (not of the code under test).
package struct TestServerError: Error, CustomStringConvertible {
    /// What went wrong.
    package var description: String

    /// An error saying `description`.
    package init(_ description: String) { self.description = description }
}
