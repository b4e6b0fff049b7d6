import Foundation

/// The command line: `HummingbirdFlagsExample <configuration URL> [--port N] [--evaluation context|swap]`.
struct Options {
    /// How a request's flags are evaluated for its user.
    enum Evaluation: String {
        /// The request's user rides in its task-local `ServiceContext`; reads evaluate for it and swap nothing.
        case context
        /// NEGATIVE CONTROL, the wrong way: `updateContext { $0 = user }`, a suspension, then a plain read. Concurrent
        /// requests overwrite each other's context, so some answers belong to another user.
        case swap
    }

    static let usage =
        "usage: HummingbirdFlagsExample <configuration URL> [--port N] [--evaluation context|swap] [--refresh-every SECONDS]"

    /// Where the targeting payload is fetched from.
    var url: URL
    /// The port to bind on 127.0.0.1; 0 picks a free one (printed at start).
    var port = 0
    /// How requests are evaluated.
    var evaluation = Evaluation.context
    /// The periodic refresh's interval, run by the service group.
    var refreshEvery: TimeInterval = 30

    /// The options of `arguments` (without the program's name), or nil when they are not valid.
    init?(_ arguments: [String]) {
        var rest = arguments[...]
        var url: URL?
        while let argument = rest.popFirst() {
            switch argument {
            case "--port":
                guard let value = rest.popFirst().flatMap(Int.init), (0...65_535).contains(value) else { return nil }
                port = value
            case "--evaluation":
                guard let value = rest.popFirst().flatMap(Evaluation.init(rawValue:)) else { return nil }
                evaluation = value
            case "--refresh-every":
                guard let value = rest.popFirst().flatMap(TimeInterval.init), value > 0 else { return nil }
                refreshEvery = value
            default:
                guard url == nil, !argument.hasPrefix("-"), let parsed = URL(string: argument), parsed.scheme != nil else {
                    return nil
                }
                url = parsed
            }
        }
        guard let url else { return nil }
        self.url = url
    }
}
