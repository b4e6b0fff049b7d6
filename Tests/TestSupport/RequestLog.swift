import ConfigPorts
import FlyingFox
import Foundation

/// One request as a ``TestHTTPServer`` saw it.
package struct RecordedRequest: Sendable {
    /// The path, without query.
    package var path: String
    /// Header values by lowercased name.
    package var headers: [String: String]
    /// The status answered (0 while the request is unanswered, or when the handler threw).
    package var status: Int
}

/// The requests a server received, in order, each with the status it got.
final class RequestLog: Sendable {
    private let entries = Locked<[RecordedRequest]>([])

    /// Records `request`, not answered yet, and returns its index.
    func begin(_ request: HTTPRequest) -> Int {
        var headers: [String: String] = [:]
        for (name, value) in request.headers { headers[name.rawValue.lowercased()] = value }
        return entries.withLock { entries in
            entries.append(RecordedRequest(path: request.path, headers: headers, status: 0))
            return entries.count - 1
        }
    }

    /// Records the status the request at `index` got.
    func finish(_ index: Int, status: Int) {
        entries.withLock { $0[index].status = status }
    }

    /// Every request so far.
    var all: [RecordedRequest] { entries.current }
}
