import ConfigPorts
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A network namespace reached over a veth pair, for a server whose link the test takes down and up.
///
/// ```
/// this process ── <host side> 10.213.x.(4k+1) ══ veth ══ 10.213.x.(4k+2) <peer side> ── namespace: the server
/// ```
///
/// The /30 is picked at random in 10.213.0.0/16 (one not already routed here). An `unreachable`
/// route for it, with a high metric, catches its traffic while the host side is down (the kernel
/// then drops the link's own route), so nothing ever leaves by another interface: traffic goes to
/// loopback and to the two ends of the pair only. ``with(_:)`` removes the route, the pair and the
/// namespace when the body ends, also when it throws.
///
/// Needs root and iproute2's `ip`; ``unavailableReason`` says why a machine cannot, and the suites
/// are skipped with it.
final class LinkDownNetwork: Sendable {
    /// The namespace's name.
    let namespace: String
    /// The interface on this side (in this process's namespace).
    let hostSide: String
    /// This side's address.
    let hostAddress: String
    /// The address in the namespace, where its server listens.
    let serverAddress: String
    /// The /30 both addresses are in, `10.213.x.y/30`.
    let subnet: String

    private init(namespace: String, hostSide: String, hostAddress: String, serverAddress: String, subnet: String) {
        self.namespace = namespace
        self.hostSide = hostSide
        self.hostAddress = hostAddress
        self.serverAddress = serverAddress
        self.subnet = subnet
    }

    /// iproute2's `ip`, or an empty path when it is not installed.
    static let ipPath: String = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let candidates = ["/usr/sbin/ip", "/sbin/ip", "/usr/bin/ip", "/bin/ip"] + path.split(separator: ":").map { "\($0)/ip" }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) } ?? ""
    }()

    /// Why this machine cannot make the namespace (nil when it can): checked once, by adding and
    /// deleting a namespace.
    static let unavailableReason: String? = {
        #if os(Linux)
            guard geteuid() == 0 else {
                return "not root (uid \(geteuid())): a network namespace and a veth pair need root (CI runs the tests as root)"
            }
            guard !ipPath.isEmpty else {
                return "iproute2's ip is not installed (looked in /usr/sbin, /sbin, /usr/bin, /bin and PATH); "
                    + "install it with apt-get install -y iproute2"
            }
            let probe = "rc-probe-\(UInt32.random(in: 0...UInt32.max))"
            let added = ip(["netns", "add", probe])
            guard added.status == 0 else {
                return "ip netns add failed (\(added.output.trimmingCharacters(in: .whitespacesAndNewlines))): "
                    + "this machine cannot make network namespaces (a container without CAP_SYS_ADMIN?)"
            }
            _ = ip(["netns", "del", probe])
            return nil
        #else
            return "network namespaces exist on Linux only"
        #endif
    }()

    /// The reason, as the skip comment of a suite.
    static var skipComment: Comment { Comment(rawValue: unavailableReason ?? "") }

    /// Runs `body` with a fresh namespace and veth pair, and removes them afterwards, whatever happens.
    static func with<T: Sendable>(_ body: (LinkDownNetwork) async throws -> T) async throws -> T {
        let tag = String(UInt32.random(in: 0...UInt32.max), radix: 16)
        let namespace = "rc-linkdown-\(tag)"
        let hostSide = "rcld\(tag.prefix(6))h"
        let peerSide = "rcld\(tag.prefix(6))n"
        let (third, fourth) = try freeSubnet()
        let subnet = "10.213.\(third).\(fourth)/30"
        let network = LinkDownNetwork(
            namespace: namespace, hostSide: hostSide, hostAddress: "10.213.\(third).\(fourth + 1)",
            serverAddress: "10.213.\(third).\(fourth + 2)", subnet: subnet)
        defer { network.remove(peerSide: peerSide) }
        try run(["netns", "add", namespace])
        try run(["link", "add", hostSide, "type", "veth", "peer", "name", peerSide])
        try run(["link", "set", peerSide, "netns", namespace])
        try run(["addr", "add", "\(network.hostAddress)/30", "dev", hostSide])
        try run(["link", "set", hostSide, "up"])
        try run(["-n", namespace, "addr", "add", "\(network.serverAddress)/30", "dev", peerSide])
        try run(["-n", namespace, "link", "set", peerSide, "up"])
        try run(["-n", namespace, "link", "set", "lo", "up"])
        try run(["route", "add", "unreachable", subnet, "metric", "4000"])
        return try await body(network)
    }

    /// Takes this side of the link down (its route goes; the `unreachable` one answers) or brings it back up.
    func setLink(up: Bool) throws {
        try Self.run(["link", "set", hostSide, up ? "up" : "down"])
    }

    /// POSTs `body` to `url` from inside the namespace (the link may be down), with the namespace's python3.
    func post(_ body: String, to url: URL) async throws {
        guard let python = PythonSSEServer.python else {
            throw ChildProcess.LaunchError(description: "python3 is not on the PATH")
        }
        let script =
            "import sys, urllib.request; urllib.request.urlopen(urllib.request.Request(sys.argv[1], "
            + "data=sys.argv[2].encode(), method='POST'), timeout=10).read()"
        let outcome = try await ChildProcess.run(
            URL(fileURLWithPath: Self.ipPath),
            arguments: ["netns", "exec", namespace, python.path, "-c", script, url.absoluteString, body],
            environment: ProcessInfo.processInfo.environment, currentDirectory: FileManager.default.temporaryDirectory,
            deadline: 20)
        guard outcome.status == 0 else {
            throw ChildProcess.LaunchError(
                description: "publishing inside \(namespace) failed (status \(outcome.status)): \(outcome.standardError)")
        }
    }

    /// Removes the route, the pair and the namespace; each step is tried whatever the others did.
    private func remove(peerSide: String) {
        _ = Self.ip(["route", "del", "unreachable", subnet, "metric", "4000"])
        // Deleting the namespace deletes its end of the pair only once the kernel has released the
        // namespace, later: delete this end at once (which deletes both).
        _ = Self.ip(["link", "del", hostSide])
        _ = Self.ip(["netns", "del", namespace])
    }

    /// A /30 in 10.213.0.0/16 that nothing here routes yet: its third byte and the first address's fourth.
    private static func freeSubnet() throws -> (Int, Int) {
        let routes = ip(["-4", "route", "show"]).output + ip(["-4", "addr", "show"]).output
        for _ in 0..<16 {
            let third = Int.random(in: 0...255)
            if !routes.contains("10.213.\(third).") { return (third, 4 * Int.random(in: 0...63)) }
        }
        throw ChildProcess.LaunchError(description: "found no free /30 in 10.213.0.0/16 after 16 tries")
    }

    /// Runs `ip arguments`; throws with its output when it fails.
    private static func run(_ arguments: [String]) throws {
        let result = ip(arguments)
        guard result.status == 0 else {
            throw ChildProcess.LaunchError(
                description: "ip \(arguments.joined(separator: " ")) failed (status \(result.status)): \(result.output)")
        }
    }

    /// Runs `ip arguments` to its end (it takes milliseconds) and returns its status and output.
    private static func ip(_ arguments: [String]) -> (status: Int32, output: String) {
        ChildProcess.runBlocking(URL(fileURLWithPath: ipPath), arguments: arguments)
    }
}
