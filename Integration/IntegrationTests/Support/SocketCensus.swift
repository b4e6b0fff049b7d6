import Foundation

/// Counts this process's open TCP sockets whose far end is a given address and port: the file
/// descriptors in `/proc/self/fd` that are sockets, matched by inode against `/proc/self/net/tcp`
/// and `tcp6`.
///
/// Tests run in parallel in one process, so the total number of descriptors moves with the other
/// tests; the sockets to a server's own address and port belong to the test that started that server.
/// On a system without `/proc` every count is 0.
enum SocketCensus {
    /// How many of this process's descriptors are TCP sockets connected (or connecting) to `host`
    /// (an IPv4 address) on one of `ports`.
    static func sockets(toPorts ports: Set<Int>, host: String = "127.0.0.1") -> Int {
        entries(toPorts: ports, host: host).count
    }

    /// Those sockets, one line each, for a failure message: `local port 40312 -> :8080, state 08`
    /// (the kernel's TCP state: 01 established, 02 SYN sent, 08 close wait, …).
    static func describe(toPorts ports: Set<Int>, host: String = "127.0.0.1") -> String {
        entries(toPorts: ports, host: host).joined(separator: "; ")
    }

    /// One line per matching socket.
    private static func entries(toPorts ports: Set<Int>, host: String) -> [String] {
        let open = socketInodes()
        guard !open.isEmpty, let wanted = hexAddress(host) else { return [] }
        var found: [String] = []
        for table in ["/proc/self/net/tcp", "/proc/self/net/tcp6"] {
            guard let text = readWhole(table) else { continue }
            // Each line after the header: sl, local address, remote address (hex address:port), state, …,
            // inode (the tenth field). An IPv6 table shows an IPv4 peer as ::ffff:a.b.c.d.
            for line in text.split(separator: "\n").dropFirst() {
                let fields = line.split(separator: " ")
                guard fields.count > 9 else { continue }
                let remote = fields[2].split(separator: ":")
                guard remote.count == 2, remote[0].hasSuffix(wanted), let port = Int(remote[1], radix: 16),
                    ports.contains(port), let inode = Int(fields[9]), open.contains(inode)
                else { continue }
                let local = fields[1].split(separator: ":").last.flatMap { Int($0, radix: 16) } ?? 0
                found.append("local port \(local) -> :\(port), state \(fields[3])")
            }
        }
        return found
    }

    /// Waits until no descriptor of this process is a socket to `host` on `ports`, checking every
    /// 50 ms (closing a socket raises no event to wait on); returns how many are left when `seconds`
    /// pass first (a safety net, not a timed assertion).
    static func waitUntilClosed(
        toPorts ports: Set<Int>, host: String = "127.0.0.1", within seconds: TimeInterval = 10
    ) async -> Int {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            let left = sockets(toPorts: ports, host: host)
            if left == 0 || Date() >= deadline { return left }
            try? await Task.sleep(nanoseconds: 50_000_000)
        }
    }

    /// `10.213.7.2` as the kernel's tables print it: the four bytes in host (little-endian) order, `0207D50A`.
    private static func hexAddress(_ host: String) -> String? {
        let bytes = host.split(separator: ".").compactMap { UInt8($0) }
        guard bytes.count == 4 else { return nil }
        return bytes.reversed().map { String(format: "%02X", $0) }.joined()
    }

    /// The whole of a `/proc` file. `String(contentsOfFile:)` and `FileManager.contents(atPath:)` stop
    /// after the first 4 KiB of these files (they report a size of 0) on Linux; a read to the end does not.
    private static func readWhole(_ path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        // `readToEnd()` throws where `readDataToEndOfFile()` would stop the process (an interrupted read).
        guard let data = try? handle.readToEnd() else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    /// The inodes of the sockets among this process's descriptors (`socket:[12345]`).
    private static func socketInodes() -> Set<Int> {
        let directory = "/proc/self/fd"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [] }
        var inodes = Set<Int>()
        for name in names {
            // A descriptor may close between the listing and this read: it is then skipped.
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "\(directory)/\(name)"),
                target.hasPrefix("socket:["), target.hasSuffix("]"), let inode = Int(target.dropFirst(8).dropLast())
            else { continue }
            inodes.insert(inode)
        }
        return inodes
    }
}
