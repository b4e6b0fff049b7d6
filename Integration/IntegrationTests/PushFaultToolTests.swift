import ConfigPorts
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The tools of the push fault tests, tested themselves: each fault of ``FaultProxy`` as a plain TCP
/// client sees it, and the invariants ``VersionLedger`` checks.
@Suite("Push fault tools: the fault proxy and the version ledger")
struct PushFaultToolTests {
    // MARK: The proxy, fault by fault

    /// Runs `body` with a push server (heartbeat every `heartbeat` s) behind a proxy, and an event
    /// stream read through the proxy; checks that the stopped proxy closed every socket.
    private func withStream(
        heartbeat: TimeInterval = 0.1, _ body: (FaultProxy, FaultProxy.PushServer, RawStream) async throws -> Void
    ) async throws {
        try await FaultProxy.PushServer.with(heartbeat: heartbeat) { server in
            let proxy = try FaultProxy.start(upstreamPort: server.port)
            do {
                let stream = try RawStream(port: proxy.port, path: "/events")
                defer { stream.close() }
                try await body(proxy, server, stream)
            } catch {
                await proxy.stop()
                throw error
            }
            await proxy.stop()
            #expect(proxy.counters.sockets == 0, "the stopped proxy left sockets open")
        }
    }

    @Test("pass forwards the server's bytes both ways")
    func pass() async throws {
        try await withStream { _, server, stream in
            #expect(await stream.read(until: "data: \"v1\"").text.contains("data: \"v1\""))
            server.publish()
            #expect(await stream.read(until: "data: \"v2\"").text.contains("data: \"v2\""))
        }
    }

    @Test("refuse resets the open connection and refuses new ones; pass listens again on the same port")
    func refuse() async throws {
        try await withStream { proxy, _, stream in
            _ = await stream.read(until: "data: \"v1\"")
            await proxy.apply(.refuse)
            #expect(await stream.read(until: "never").ending == .reset)
            #expect(throws: RawStream.Failure.refused) { try RawStream(port: proxy.port, path: "/events") }
            await proxy.apply(.pass)
            let again = try RawStream(port: proxy.port, path: "/events")
            defer { again.close() }
            #expect(await again.read(until: "data: \"v1\"").text.contains("data: \"v1\""))
        }
    }

    @Test("reset resets the open connection mid-stream; a new one passes")
    func reset() async throws {
        try await withStream { proxy, _, stream in
            _ = await stream.read(until: "data: \"v1\"")
            await proxy.apply(.reset)
            #expect(await stream.read(until: "never").ending == .reset)
            #expect(proxy.counters.resets == 1)
        }
    }

    @Test("stall forwards nothing and closes nothing; pass delivers what waited")
    func stall() async throws {
        // No heartbeats: bytes already on their way when the fault starts would otherwise arrive on a loaded machine.
        try await withStream(heartbeat: 10) { proxy, server, stream in
            _ = await stream.read(until: "data: \"v1\"")
            await proxy.apply(.stall)
            _ = await stream.read(within: 0.05)  // what was under way before the stall
            server.publish()
            let stalled = await stream.read(within: 0.4)
            #expect(stalled.text.isEmpty && stalled.ending == .timedOut, "\(stalled)")
            await proxy.apply(.pass)
            #expect(await stream.read(until: "data: \"v2\"").text.contains("data: \"v2\""))
        }
    }

    @Test("half-open forwards nothing and never closes, even after pass; the proxy notices when the client closes")
    func halfOpen() async throws {
        // No heartbeats: bytes already on their way when the fault starts would otherwise arrive on a loaded machine.
        try await withStream(heartbeat: 10) { proxy, server, stream in
            _ = await stream.read(until: "data: \"v1\"")
            await proxy.apply(.halfOpen)
            await proxy.apply(.pass)
            server.publish()
            let dead = await stream.read(within: 0.4)
            #expect(dead.text.isEmpty && dead.ending == .timedOut, "\(dead)")
            #expect(proxy.counters.dead == 1 && proxy.counters.killed == 1)
            stream.close()
            #expect(await proxy.waitUntil(within: loopbackDeadline) { $0.open == 0 && $0.dead == 0 })
        }
    }

    @Test("trickle forwards the server's bytes one at a time")
    func trickle() async throws {
        try await withStream(heartbeat: 10) { proxy, server, stream in
            _ = await stream.read(until: "data: \"v1\"")
            await proxy.apply(.trickle(interval: 0.002))
            server.publish()
            let trickled = await stream.read(until: "data: \"v2\"")
            #expect(trickled.text.contains("data: \"v2\""))
            #expect(
                trickled.reads >= 10, "\(trickled.reads) reads: the bytes came one at a time (or nearly, on a loaded machine)")
        }
    }

    @Test("half event forwards half of the next chunk, then resets")
    func halfEvent() async throws {
        try await withStream(heartbeat: 10) { proxy, server, stream in
            _ = await stream.read(until: "data: \"v1\"")
            await proxy.apply(.halfEvent)
            server.publish()
            let cut = await stream.read(until: "never")
            #expect(cut.ending == .reset)
            #expect(cut.text.contains("id: 2") && !cut.text.contains("data: \"v2\""), "\(cut.text)")
            #expect(proxy.counters.cuts == 1)
        }
    }

    @Test("half event applied while no connection is open cuts the next one opened, and only that one")
    func halfEventArmsTheNextConnection() async throws {
        try await withStream(heartbeat: 10) { proxy, _, stream in
            _ = await stream.read(until: "data: \"v1\"")
            stream.close()
            #expect(await proxy.waitUntil(within: loopbackDeadline) { $0.open == 0 })
            await proxy.apply(.halfEvent)
            let next = try RawStream(port: proxy.port, path: "/events")
            defer { next.close() }
            let cut = await next.read(until: "never")
            #expect(cut.ending == .reset)
            #expect(!cut.text.contains("data: \"v1\""), "\(cut.text)")
            #expect(proxy.counters.cuts == 1)
            let after = try RawStream(port: proxy.port, path: "/events")
            defer { after.close() }
            #expect(await after.read(until: "data: \"v1\"").text.contains("data: \"v1\""), "the fault acted once")
            #expect(proxy.counters.cuts == 1)
        }
    }

    @Test("replay sends the chunks already forwarded again, whole, between two chunks")
    func replay() async throws {
        try await withStream(heartbeat: 10) { proxy, server, stream in
            _ = await stream.read(until: "data: \"v1\"")
            server.publish()
            _ = await stream.read(until: "data: \"v2\"")
            await proxy.apply(.replay)
            server.publish()
            let replayed = await stream.read(until: "data: \"v3\"")
            #expect(replayed.text.contains("id: 1\ndata: \"v1\"") && replayed.text.contains("id: 2\ndata: \"v2\""))
            #expect(proxy.counters.replays == 1 && proxy.counters.replayedChunks == 2)
        }
    }

    @Test("a seeded generator draws the same faults again, each kind in turn")
    func seededFaults() {
        var first = FaultProxy.SeededGenerator(seed: 20_261_207)
        var second = FaultProxy.SeededGenerator(seed: 20_261_207)
        let drawn = (0..<200).map { _ in FaultProxy.Fault.random(using: &first) }
        #expect(drawn == (0..<200).map { _ in FaultProxy.Fault.random(using: &second) })
        #expect(Set(drawn.map(\.kind)) == Set(FaultProxy.Fault.all.map(\.kind)))
        var third = FaultProxy.SeededGenerator(seed: 1)
        #expect(FaultProxy.Fault.random(using: &third, among: []) == .pass)
    }

    @Test("a proxy whose server is gone resets the client's connection")
    func upstreamGone() async throws {
        let port = try await TestHTTPServer.with { $0.port }  // nothing listens there any more
        try await FaultProxy.with(upstreamPort: port) { proxy in
            let stream = try RawStream(port: proxy.port, path: "/events")
            defer { stream.close() }
            // The reset may reach the request's send first, and the read then sees the end.
            let read = await stream.read(until: "never")
            #expect(read.text.isEmpty && [.reset, .closed].contains(read.ending), "\(read)")
            #expect(await proxy.waitUntil(within: loopbackDeadline) { $0.upstreamFailures == 1 })
        }
    }

    // MARK: The ledger

    @Test("the ledger finds no violation in a clean run, skipped versions included")
    func cleanLedger() async {
        let ledger = VersionLedger()
        for version in [1, 2, 5, 6] { ledger.record(version) }
        #expect(ledger.applied == [1, 2, 5, 6])
        #expect(ledger.violations(publishedUpTo: 6) == [])
        #expect(await ledger.waitUntilHolding(5, within: 0) == 0)
    }

    @Test("the ledger names a version applied twice, an older one after a newer, one never published, and a missed newest")
    func violations() {
        let ledger = VersionLedger()
        for version in [1, 3, 3, 2, 9] { ledger.record(version) }
        let found = ledger.violations(publishedUpTo: 8)
        #expect(found.contains("applied version 3 twice (again at application 3)"), "\(found)")
        #expect(found.contains("applied version 2 after the newer version 3 (application 4)"), "\(found)")
        #expect(found.contains("applied version 9 (application 5), which was never published (1...8)"), "\(found)")
        #expect(found.contains { $0.hasPrefix("the client holds version 9, not the newest published, 8") }, "\(found)")
        #expect(
            VersionLedger().violations(publishedUpTo: 1) == [
                "the client holds version none, not the newest published, 1 (applied: )"
            ])
    }

    @Test("waiting for a version: at once when held, when recorded, nil past the deadline")
    func waiting() async {
        let ledger = VersionLedger()
        #expect(await ledger.waitUntilHolding(1, within: 0.05) == nil)
        async let waited = ledger.waitUntilHolding(2, within: loopbackDeadline)
        ledger.record(1)
        ledger.record(3)
        #expect(await waited != nil)
    }

    @Test("open file descriptors are counted from /proc/self/fd")
    func descriptors() throws {
        let before = VersionLedger.openFileDescriptors()
        let handle = try #require(FileHandle(forReadingAtPath: "/proc/self/stat"))
        let during = VersionLedger.openFileDescriptors()
        try handle.close()
        #expect(before > 0)
        #expect(during >= before + 1 || during < before, "another test may close descriptors meanwhile")
    }
}

/// A plain TCP client that sends `GET path` and reads what comes, with deadlines (never a sleep).
final class RawStream: Sendable {
    enum Failure: Error, Equatable { case refused, failed(Int32) }

    /// How a read ended.
    enum Ending: Equatable { case found, closed, reset, timedOut }

    /// What a read returned.
    struct Read: CustomStringConvertible {
        var text = ""
        var ending = Ending.timedOut
        /// How many `recv` calls returned bytes.
        var reads = 0
        var description: String { "\(ending) after \(reads) reads: \(text.debugDescription)" }
    }

    private let fd: Int32
    private let closed = Locked(false)

    init(port: UInt16, path: String) throws(Failure) {
        #if canImport(Glibc)
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw .failed(errno) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            let code = errno
            closeDescriptor(fd)
            throw code == ECONNREFUSED ? .refused : .failed(code)
        }
        #if os(Linux)
            let flags = Int32(MSG_NOSIGNAL)
        #else
            let flags: Int32 = 0
        #endif
        let request = Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".utf8)
        _ = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, flags) }
        self.fd = fd
    }

    /// Reads until the text read contains `marker`, the connection ends, or `seconds` pass, on a thread
    /// of its own (the waiting `poll` never holds a thread of Swift's cooperative pool).
    func read(until marker: String = "", within seconds: TimeInterval = loopbackDeadline) async -> Read {
        let done = Eventual<Read>()
        let thread = Thread { [self] in done.set(self.readBlocking(until: marker, within: seconds)) }
        thread.start()
        return await done.value()
    }

    private func readBlocking(until marker: String, within seconds: TimeInterval) -> Read {
        var result = Read()
        var bytes: [UInt8] = []
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { break }
            var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, Int32(left * 1000) + 1) > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, 4096, 0) }
            if count > 0 {
                bytes += chunk[0..<count]
                result.reads += 1
                result.text = String(decoding: bytes, as: UTF8.self)
                if !marker.isEmpty && result.text.contains(marker) {
                    result.ending = .found
                    return result
                }
            } else {
                result.ending = count == 0 ? .closed : (errno == ECONNRESET ? .reset : .closed)
                return result
            }
        }
        return result
    }

    /// Closes the connection (once).
    func close() {
        guard
            closed.withLock({ closed in
                defer { closed = true }; return !closed
            })
        else { return }
        closeDescriptor(fd)
    }
}

/// Closes a descriptor (the C function, which `RawStream.close()` hides inside the class).
private func closeDescriptor(_ fd: Int32) { _ = close(fd) }
