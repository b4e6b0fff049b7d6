import ConfigDomain
import Foundation

/// Which URLs an HTTP adapter may talk to, and how a URL is shown in messages.
///
/// HTTPS is always allowed. Plain HTTP is allowed only to a loopback host (`localhost`,
/// `127.0.0.0/8`, `::1`) unless the configuration opts in loudly with
/// `allowsInsecureHTTPForNonLoopbackHosts` (each adapter's configuration has it). Any other scheme is refused.
public enum EndpointPolicy {
    /// Why a URL is refused, or `nil` when it is allowed.
    public static func refusal(for url: URL, allowsInsecureHTTP: Bool) -> String? {
        guard let scheme = url.scheme?.lowercased() else {
            return "the URL \(displayString(for: url)) has no scheme; use an https:// URL"
        }
        guard scheme == "https" || scheme == "http" else {
            return "the URL scheme \"\(scheme)\" is not supported; use an https:// URL"
        }
        guard let host = hostName(of: url), !host.isEmpty else {
            return "the URL \(displayString(for: url)) has no host; use an https:// URL with a host name"
        }
        if scheme == "http" && !allowsInsecureHTTP && !isLoopback(host: host) {
            return "plain http to the non-loopback host \(host) is refused: use https, or set "
                + "allowsInsecureHTTPForNonLoopbackHosts = true if you really mean to send configuration "
                + "requests (and their headers) unencrypted"
        }
        return nil
    }

    /// The host without IPv6 brackets.
    public static func hostName(of url: URL) -> String? {
        guard var host = url.host else { return nil }
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        return host
    }

    /// Whether `host` names this machine: `localhost`, an IPv4 address in `127.0.0.0/8`, or `::1`.
    ///
    /// Other spellings (`127.1`, `foo.localhost`, IPv4-mapped IPv6) count as non-loopback, which
    /// errs on the side of refusing plain HTTP.
    public static func isLoopback(host: String) -> Bool {
        var name = host.lowercased()
        if name.hasPrefix("[") && name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
        if name.hasSuffix(".") { name.removeLast() }
        if name == "localhost" { return true }
        if let octets = ipv4Octets(name) { return octets[0] == 127 }
        if let groups = ipv6Groups(name) { return groups.dropLast().allSatisfy { $0 == 0 } && groups.last == 1 }
        return false
    }

    /// The four octets of a dotted-quad IPv4 address, or `nil`.
    static func ipv4Octets(_ text: String) -> [Int]? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var octets: [Int] = []
        for part in parts {
            guard !part.isEmpty, part.count <= 3, part.allSatisfy({ $0.isASCII && $0.isNumber }),
                let value = Int(part), value <= 255
            else { return nil }
            octets.append(value)
        }
        return octets
    }

    /// The eight 16-bit groups of a textual IPv6 address (hex groups, one `::` allowed), or `nil`.
    static func ipv6Groups(_ text: String) -> [UInt16]? {
        guard text.contains(":") else { return nil }
        let halves = text.components(separatedBy: "::")
        guard halves.count <= 2 else { return nil }
        func groups(_ part: String) -> [UInt16]? {
            if part.isEmpty { return [] }
            var out: [UInt16] = []
            for piece in part.split(separator: ":", omittingEmptySubsequences: false) {
                guard (1...4).contains(piece.count), let value = UInt16(piece, radix: 16) else { return nil }
                out.append(value)
            }
            return out
        }
        guard let head = groups(halves[0]) else { return nil }
        if halves.count == 1 { return head.count == 8 ? head : nil }
        guard let tail = groups(halves[1]), head.count + tail.count < 8 else { return nil }
        return head + Array(repeating: 0, count: 8 - head.count - tail.count) + tail
    }

    /// The URL as shown in messages and provenance: no user, password, query or fragment.
    ///
    /// A query may carry an API key, so it is replaced by `?<redacted>`.
    public static func displayString(for url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            return "<unparseable URL>"
        }
        let hadQuery = components.percentEncodedQuery != nil
        components.user = nil
        components.password = nil
        components.percentEncodedQuery = nil
        components.fragment = nil
        return (components.string ?? "<unparseable URL>") + (hadQuery ? "?<redacted>" : "")
    }

    /// Whether two URLs share scheme, host and port (the same origin).
    public static func sameOrigin(_ a: URL, _ b: URL) -> Bool {
        func origin(_ url: URL) -> (String, String, Int)? {
            guard let scheme = url.scheme?.lowercased(), let host = hostName(of: url)?.lowercased() else { return nil }
            let port = url.port ?? (scheme == "https" ? 443 : 80)
            return (scheme, host, port)
        }
        guard let left = origin(a), let right = origin(b) else { return false }
        return left == right
    }
}
