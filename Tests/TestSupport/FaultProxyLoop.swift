import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The ``FaultProxy``'s thread: one `poll()` loop over the listening socket, a wake-up pipe and both
/// sockets of every connection. Everything here is confined to that thread; other threads reach it
/// through ``ProxyShared`` only.
final class ProxyLoop {
    /// What the loop starts with.
    struct Settings: Sendable {
        var listener: Int32
        var port: UInt16
        var upstreamPort: UInt16
        var wakeRead: Int32
        var wakeWrite: Int32
    }

    /// Bytes waiting to be written, consumed from the front.
    struct ByteQueue {
        private(set) var bytes: [UInt8] = []
        private(set) var start = 0

        var count: Int { bytes.count - start }
        var isEmpty: Bool { count == 0 }

        mutating func append(_ more: some Sequence<UInt8>) { bytes.append(contentsOf: more) }

        mutating func consume(_ count: Int) {
            start += count
            if start == bytes.count {
                bytes.removeAll(keepingCapacity: true)
                start = 0
            } else if start > 64 * 1024 {
                bytes.removeFirst(start)
                start = 0
            }
        }
    }

    /// One client connection and its connection to the server.
    final class Link {
        var client: Int32?
        var server: Int32?
        var connecting = true
        var toServer = ByteQueue()
        var toClient = ByteQueue()
        var framing = ResponseFraming()
        /// The chunks forwarded so far (the last 64), for a replay.
        var history: [[UInt8]] = []
        /// Whether the bytes queued for the client end between two chunks.
        var betweenChunks = false
        var cutArmed = false
        var replayArmed = false
        /// Reset the client once what is queued for it is written (after a cut).
        var resetAfterFlush = false
        /// The server ended its side: close the client once what is queued for it is written.
        var serverEnded = false
        /// Half-open: nothing forwarded, never closed by the proxy.
        var dead = false
        /// When the next trickled byte may go, in `DispatchTime` nanoseconds.
        var nextByteAt: UInt64 = 0

        init(client: Int32) { self.client = client }
    }

    private let settings: Settings
    private let shared: ProxyShared
    private var listener: Int32?
    private var links: [Link] = []
    /// What the proxy does now (one-shot faults leave it at `.pass`).
    private var mode = FaultProxy.Fault.pass
    private var lastApplied = FaultProxy.Fault.pass
    /// A `halfEvent` or `replay` that has not acted yet: it arms the next connection accepted too, so a
    /// client that drops its connection just as the fault is applied still meets it.
    private var armsNextConnection: FaultProxy.Fault?
    private var counters = FaultProxy.Counters()
    private var running = true
    /// The `apply` calls handled this round, told once the counters are published.
    private var acknowledgements: [Eventual<Void>] = []

    /// The most bytes queued one way on one connection before the proxy stops reading that way.
    private static let queueLimit = 1024 * 1024

    init(settings: Settings, shared: ProxyShared) {
        self.settings = settings
        self.shared = shared
        self.listener = settings.listener
    }

    /// Forwards until told to stop, then closes every socket.
    func run() {
        publish()
        while running {
            pollOnce()
            publish()
            // Acknowledged once published, so a caller of `apply` reads counters that include its fault.
            for done in acknowledgements { done.set(()) }
            acknowledgements = []
        }
        for link in links { close(link, resettingClient: true) }
        links = []
        if let listener { ProxySockets.release(listener) }
        listener = nil
        ProxySockets.release(settings.wakeRead)
        for command in shared.closeInbox(closing: settings.wakeWrite) { if case .apply(_, let done) = command { done.set(()) } }
        publish(final: true)
    }

    // MARK: One round

    private struct Watch {
        var link: Link
        var clientIndex: Int?
        var serverIndex: Int?
    }

    private func pollOnce() {
        var fds = [pollfd(fd: settings.wakeRead, events: Int16(POLLIN), revents: 0)]
        var listenerIndex: Int?
        if let listener {
            listenerIndex = fds.count
            fds.append(pollfd(fd: listener, events: Int16(POLLIN), revents: 0))
        }
        var watches: [Watch] = []
        let now = DispatchTime.now().uptimeNanoseconds
        var timeout: UInt64?
        for link in links {
            var watch = Watch(link: link)
            if let client = link.client {
                watch.clientIndex = fds.count
                fds.append(pollfd(fd: client, events: clientEvents(link, now: now, timeout: &timeout), revents: 0))
            }
            if let server = link.server {
                watch.serverIndex = fds.count
                fds.append(pollfd(fd: server, events: serverEvents(link), revents: 0))
            }
            watches.append(watch)
        }
        let milliseconds = timeout.map { Int32(min(($0 + 999_999) / 1_000_000, 1000)) } ?? -1
        guard poll(&fds, nfds_t(fds.count), milliseconds) >= 0 else { return }  // EINTR: go round again
        if fds[0].revents != 0 {
            ProxySockets.drain(settings.wakeRead)
            for command in shared.takeInbox() { handle(command) }
        }
        if let listenerIndex, fds[listenerIndex].revents != 0 { acceptAll() }
        for watch in watches {
            if let index = watch.serverIndex, watch.link.server == fds[index].fd { serverReady(watch.link, fds[index].revents) }
            if let index = watch.clientIndex, watch.link.client == fds[index].fd { clientReady(watch.link, fds[index].revents) }
        }
        links.removeAll { $0.client == nil && $0.server == nil }
    }

    private var stalled: Bool { mode == .stall }

    private var trickleInterval: TimeInterval? {
        if case .trickle(let interval) = mode { return interval }
        return nil
    }

    /// What to wait for on a link's client socket; lowers `timeout` to the next trickled byte.
    private func clientEvents(_ link: Link, now: UInt64, timeout: inout UInt64?) -> Int16 {
        if link.dead || stalled { return ProxySockets.peerClosed }
        var events: Int16 = 0
        if link.toServer.count < Self.queueLimit { events |= Int16(POLLIN) }
        if !link.toClient.isEmpty {
            if trickleInterval != nil && link.nextByteAt > now {
                timeout = min(timeout ?? .max, link.nextByteAt - now)
            } else {
                events |= Int16(POLLOUT)
            }
        }
        return events == 0 ? ProxySockets.peerClosed : events
    }

    /// What to wait for on a link's server socket (errors and hang-ups are always reported).
    private func serverEvents(_ link: Link) -> Int16 {
        if link.connecting { return Int16(POLLOUT) }
        if stalled { return 0 }
        var events: Int16 = 0
        if link.toClient.count < Self.queueLimit { events |= Int16(POLLIN) }
        if !link.toServer.isEmpty { events |= Int16(POLLOUT) }
        return events
    }

    // MARK: Commands

    private func handle(_ command: ProxyShared.Command) {
        switch command {
        case .stop:
            running = false
        case .apply(let fault, let done):
            apply(fault)
            counters.faultsApplied += 1
            acknowledgements.append(done)
        }
    }

    private func apply(_ fault: FaultProxy.Fault) {
        lastApplied = fault
        if fault != .refuse && listener == nil { reopenListener() }
        let live = links.filter { !$0.dead && $0.client != nil }
        armsNextConnection = fault == .halfEvent || fault == .replay ? fault : nil
        switch fault {
        case .pass, .stall, .trickle:
            mode = fault
        case .refuse:
            mode = .refuse
            if let listener { ProxySockets.release(listener) }
            listener = nil
            for link in live { resetByFault(link) }
        case .reset:
            mode = .pass
            for link in live { resetByFault(link) }
        case .halfOpen:
            mode = .halfOpen
            for link in live { kill(link) }
        case .halfEvent:
            mode = .pass
            for link in live { link.cutArmed = true }
        case .replay:
            mode = .pass
            for link in live {
                link.replayArmed = true
                replayIfDue(link)
            }
        }
    }

    /// Listens again on the proxy's port after ``FaultProxy/Fault/refuse``.
    private func reopenListener() {
        listener = try? ProxySockets.listening(port: settings.port).fd
    }

    // MARK: Connections

    private func acceptAll() {
        guard let listener else { return }
        while let client = ProxySockets.acceptPending(listener) {
            counters.accepted += 1
            let link = Link(client: client)
            links.append(link)
            link.cutArmed = armsNextConnection == .halfEvent
            link.replayArmed = armsNextConnection == .replay
            if mode == .halfOpen {
                kill(link)
                continue
            }
            do {
                link.server = try ProxySockets.connecting(to: settings.upstreamPort)
            } catch {
                counters.upstreamFailures += 1
                close(link, resettingClient: true)
            }
        }
    }

    private func serverReady(_ link: Link, _ revents: Int16) {
        guard let server = link.server, revents != 0 else { return }
        if link.connecting {
            guard ProxySockets.connectResult(server) == 0 else {
                counters.upstreamFailures += 1
                close(link, resettingClient: true)
                return
            }
            link.connecting = false
            return
        }
        if revents & Int16(POLLOUT) != 0 { flushToServer(link) }
        guard link.server != nil else { return }
        if revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 && !stalled { readServer(link) }
        if stalled && revents & Int16(POLLERR | POLLHUP) != 0 {
            // The server went away while stalled: what it sent waits for the stall to end.
            closeServer(link)
            link.serverEnded = true
        }
    }

    private func clientReady(_ link: Link, _ revents: Int16) {
        guard let client = link.client, revents != 0 else { return }
        if link.dead || stalled {
            if revents & (ProxySockets.peerClosed | Int16(POLLHUP | POLLERR)) != 0 { close(link, resettingClient: false) }
            return
        }
        if revents & Int16(POLLOUT) != 0 { flushToClient(link, client) }
        guard link.client != nil else { return }
        if revents & (Int16(POLLIN | POLLHUP | POLLERR) | ProxySockets.peerClosed) != 0 {
            var bytes: [UInt8] = []
            switch ProxySockets.receive(client, into: &bytes) {
            case .moved: link.toServer.append(bytes)
            case .wouldBlock: break
            case .closed, .failed: close(link, resettingClient: false)
            }
        }
    }

    private func readServer(_ link: Link) {
        guard let server = link.server else { return }
        var bytes: [UInt8] = []
        switch ProxySockets.receive(server, into: &bytes) {
        case .wouldBlock: return
        case .failed:
            close(link, resettingClient: true)  // a reset from the server reaches the client as one
            return
        case .closed:
            closeServer(link)
            link.serverEnded = true
            if link.toClient.isEmpty { close(link, resettingClient: false) }
            return
        case .moved:
            break
        }
        for piece in link.framing.feed(bytes) {
            if link.cutArmed && piece.isChunk {
                link.cutArmed = false
                link.toClient.append(piece.bytes.prefix(max(1, piece.bytes.count / 2)))
                link.resetAfterFlush = true
                counters.cuts += 1
                armsNextConnection = nil
                closeServer(link)
                return
            }
            link.toClient.append(piece.bytes)
            link.betweenChunks = piece.endsBetweenChunks
            if piece.isChunk {
                link.history.append(piece.bytes)
                if link.history.count > 64 { link.history.removeFirst() }
            }
            replayIfDue(link)
        }
    }

    /// Sends the chunks forwarded so far again, if a replay is armed and the stream is between chunks.
    private func replayIfDue(_ link: Link) {
        guard link.replayArmed, link.betweenChunks, !link.history.isEmpty else { return }
        link.replayArmed = false
        for chunk in link.history { link.toClient.append(chunk) }
        counters.replays += 1
        armsNextConnection = nil
        counters.replayedChunks += link.history.count
    }

    private func flushToServer(_ link: Link) {
        guard let server = link.server, !link.toServer.isEmpty else { return }
        switch ProxySockets.transmit(server, link.toServer.bytes, from: link.toServer.start) {
        case .moved(let count):
            link.toServer.consume(count)
            counters.bytesToServer += count
        case .wouldBlock: break
        case .closed, .failed: close(link, resettingClient: true)
        }
    }

    private func flushToClient(_ link: Link, _ client: Int32) {
        let trickle = trickleInterval
        switch ProxySockets.transmit(client, link.toClient.bytes, from: link.toClient.start, limit: trickle == nil ? .max : 1) {
        case .moved(let count):
            link.toClient.consume(count)
            counters.bytesToClients += count
            if let trickle { link.nextByteAt = DispatchTime.now().uptimeNanoseconds + UInt64(trickle * 1_000_000_000) }
        case .wouldBlock: break
        case .closed, .failed:
            close(link, resettingClient: false)
            return
        }
        guard link.toClient.isEmpty else { return }
        if link.resetAfterFlush {
            counters.resets += 1
            close(link, resettingClient: true)
        } else if link.serverEnded {
            close(link, resettingClient: false)
        }
    }

    /// Resets a live link's client (RST) and closes its server side, for a fault.
    private func resetByFault(_ link: Link) {
        counters.resets += 1
        close(link, resettingClient: true)
    }

    /// Half-open: the server side goes away, the client side is never written to or closed again.
    private func kill(_ link: Link) {
        link.dead = true
        counters.killed += 1
        closeServer(link)
        link.toClient = ByteQueue()
        link.toServer = ByteQueue()
    }

    private func closeServer(_ link: Link) {
        if let server = link.server { ProxySockets.release(server) }
        link.server = nil
        link.connecting = false
    }

    private func close(_ link: Link, resettingClient: Bool) {
        if let client = link.client {
            if resettingClient { ProxySockets.reset(client) } else { ProxySockets.release(client) }
        }
        link.client = nil
        closeServer(link)
    }

    // MARK: Publishing

    private func publish(final: Bool = false) {
        var counters = self.counters
        counters.open = links.filter { $0.client != nil }.count
        counters.dead = links.filter { $0.client != nil && $0.dead }.count
        counters.sockets =
            final
            ? 0 : 2 + (listener == nil ? 0 : 1) + links.reduce(0) { $0 + ($1.client == nil ? 0 : 1) + ($1.server == nil ? 0 : 1) }
        shared.publish(lastApplied, counters: counters)
    }
}
