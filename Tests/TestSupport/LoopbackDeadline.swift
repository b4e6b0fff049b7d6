import Foundation

/// How long a test waits for an answer a healthy server on 127.0.0.1 gives at once.
///
/// A deadline, not a measurement: `make test` runs some 1,400 tests at the same time on two cores, and a
/// loopback request then waits its turn for seconds (10 s was once not enough for four redirects). Tests
/// that want a timeout set a short one of their own.
package let loopbackDeadline: TimeInterval = 60
