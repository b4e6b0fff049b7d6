import Foundation

/// The URLs an ``OFREPFetcher`` talks to, and how a URL is shown in messages.
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

    /// The host without IPv6 brackets.
    static func hostName(of url: URL) -> String? {
        guard var host = url.host else { return nil }
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        return host
    }

    /// Whether `host` names this machine: `localhost`, `127.x.x.x` or `::1`.
    static func isLoopback(_ host: String) -> Bool {
        let name = host.lowercased()
        if name == "localhost" || name == "::1" || name == "0:0:0:0:0:0:0:1" { return true }
        let octets = name.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets[0] == "127" && octets.allSatisfy { UInt8($0) != nil }
    }

    /// The URL as messages and provenance show it: no user, password, query or fragment (a query
    /// may carry a key; it is shown as `?<redacted>`).
    static func display(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return "<unparseable URL>" }
        let hadQuery = components.percentEncodedQuery != nil
        components.user = nil
        components.password = nil
        components.percentEncodedQuery = nil
        components.fragment = nil
        return (components.string ?? "<unparseable URL>") + (hadQuery ? "?<redacted>" : "")
    }

    /// `scheme://host[:port]` of `url`.
    static func origin(of url: URL) -> String? {
        guard let scheme = url.scheme, let host = url.host else { return nil }
        return "\(scheme)://\(host)" + (url.port.map { ":\($0)" } ?? "")
    }
}

/// Removes secret header values from text before the adapter lets it out: messages are built
/// without them in the first place, and this is the second line of defence.
struct Redactor: Sendable {
    /// What replaces a secret.
    static let placeholder = "<redacted>"

    private let fragments: [String]

    /// A redactor for these secret values; each long word of a value (a token after `Bearer`) is redacted on its own too.
    init(secretValues: some Sequence<String>) {
        var found = Set<String>()
        for value in secretValues {
            let trimmed = value.trimmingCharacters(in: .whitespaces)
            if !trimmed.isEmpty { found.insert(trimmed) }
            for word in trimmed.split(whereSeparator: { $0 == " " || $0 == "\t" }) where word.count >= 8 {
                found.insert(String(word))
            }
        }
        fragments = found.sorted { $0.count > $1.count }
    }

    /// `text` with every secret replaced by `<redacted>`.
    func redact(_ text: String) -> String {
        var out = text
        for fragment in fragments where out.contains(fragment) {
            out = out.replacingOccurrences(of: fragment, with: Self.placeholder)
        }
        return out
    }
}
