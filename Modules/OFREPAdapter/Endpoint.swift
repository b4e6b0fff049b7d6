import Foundation

/// The URLs an ``OFREPFetcher`` talks to (HTTPSupport's `EndpointPolicy` shows them in messages).
enum Endpoint {
    /// `<base>/ofrep/v1/evaluate/flags`, with `query` added (the base's own query kept).
    static func bulkEvaluation(at base: URL, query: [URLQueryItem] = []) -> URL? {
        guard var components = URLComponents(url: base, resolvingAgainstBaseURL: false) else { return nil }
        var path = components.percentEncodedPath
        while path.hasSuffix("/") { path.removeLast() }
        components.percentEncodedPath = path + "/ofrep/v1/evaluate/flags"
        if !query.isEmpty { components.queryItems = (components.queryItems ?? []) + query }
        components.fragment = nil
        return components.url
    }

    /// `scheme://host[:port]` of `url`.
    static func origin(of url: URL) -> String? {
        guard let scheme = url.scheme, let host = url.host else { return nil }
        return "\(scheme)://\(host)" + (url.port.map { ":\($0)" } ?? "")
    }
}
