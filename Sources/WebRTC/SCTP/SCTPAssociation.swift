import CUsrsctp
#if canImport(Glibc)
import Glibc
#endif
import NIOConcurrencyHelpers
import NIOCore

/// One SCTP association over the session's DTLS association (RFC 8261), through libusrsctp in
/// AF_CONN mode: packets in from DTLS (`receive`), packets out to DTLS (`onPacket`), whole
/// messages in and out with their stream and payload protocol identifier. vload connects (the
/// offerer and ICE-controlling side opens, as aiortc's answerer waits for the INIT).
///
/// Threads: usrsctp runs its own timer thread and calls its output and receive callbacks from
/// whichever thread it is on (that thread, or the event loop inside `receive` and `send`). The
/// callbacks copy what they are given and hop onto the association's event loop with
/// `EventLoop.execute`; everything else here runs on that loop. The callbacks find the
/// association by a key in a locked table, never by a pointer, so a callback that comes after
/// `close` finds nothing and drops its bytes. While `close` runs, the output callback keeps the
/// packets it is given (the ABORT) for `close` to hand over itself before it returns.
package final class SCTPAssociation {
    /// The SCTP port both ends use: RFC 8841's default a=sctp-port, which every stack offers.
    package static let defaultPort: UInt16 = 5_000
    /// Streams asked for each way. A data channel uses one stream (its id), and a call opens
    /// one or two; usrsctp allocates every stream's state at the association's start, 64 bytes
    /// an outgoing stream, so libwebrtc's 1,024 cost 64 KB a call (BENCHMARKS.md, "Memory per
    /// WebRTC session"). The association uses the smaller of both ends' counts (RFC 4960 §5.1.1).
    package static let streamCount: UInt16 = 16
    /// The largest SCTP packet: one DTLS record in one datagram of `DTLSEndpoint.mtuBytes`. A DTLS
    /// 1.2 record adds at most 93 bytes (13 of header, and with a CBC suite a 16-byte IV, a
    /// 48-byte HMAC-SHA384 and 16 of padding); 100 are kept back.
    package static let mtuBytes = DTLSEndpoint.mtuBytes - 100

    /// Starts usrsctp (its threads and timers), once a process; the first association does it
    /// too, on its loop, so `WebRTCWarmUp` does it before a run.
    package static func startLibrary() { SCTPRoutes.startLibrary() }

    private let key: UInt
    private var socket: OpaquePointer?
    private let onPacket: ([UInt8]) -> Void
    private let onEvent: (SCTPEvent) -> Void
    private var partialMessage: [UInt8] = []

    /// Opens the socket and sends the INIT. `onPacket` gets each SCTP packet to send over DTLS,
    /// `onEvent` the association's events, both on `eventLoop`.
    package init(
        eventLoop: any EventLoop, remotePort: UInt16, onPacket: @escaping ([UInt8]) -> Void,
        onEvent: @escaping (SCTPEvent) -> Void
    ) throws(SCTPError) {
        eventLoop.preconditionInEventLoop()
        SCTPRoutes.startLibrary()
        self.onPacket = onPacket
        self.onEvent = onEvent
        self.key = SCTPRoutes.nextKey()
        SCTPRoutes.add(key, SCTPRoute(association: NIOLoopBound(self, eventLoop: eventLoop), eventLoop: eventLoop))
        var error: Int32 = 0
        guard
            let socket = vload_sctp_open(
                SCTPRoutes.address(key), sctpReceive, Self.defaultPort, remotePort, UInt32(Self.mtuBytes), Self.streamCount, &error)
        else {
            _ = SCTPRoutes.remove(key)
            throw .open(errno: error)
        }
        self.socket = socket
    }

    /// An SCTP packet that arrived as DTLS application data.
    package func receive(_ packet: [UInt8]) {
        guard socket != nil else { return }
        packet.withUnsafeBytes { usrsctp_conninput(SCTPRoutes.address(key), $0.baseAddress, $0.count, 0) }
    }

    /// Queues one whole message (not empty: RFC 8831 §6.6 sends an empty one as one byte with
    /// its own PPID) on `streamID`, ordered and reliable.
    package func send(_ message: [UInt8], streamID: UInt16, ppid: UInt32) throws(SCTPError) {
        guard let socket else { throw .closed }
        let sent = message.withUnsafeBytes { vload_sctp_send(socket, $0.baseAddress, $0.count, streamID, ppid) }
        guard sent == message.count else { throw .send(errno: sent < 0 ? errno : 0) }
    }

    /// Aborts the association and forgets its key; later callbacks are dropped. The ABORT
    /// usrsctp writes while closing goes to `onPacket` before this returns, as aiortc's
    /// `RTCSctpTransport.stop()` sends one when a call hangs up.
    package func close() {
        guard let socket else { return }
        self.socket = nil
        SCTPRoutes.capture(key)
        vload_sctp_close(socket, SCTPRoutes.address(key))
        for packet in SCTPRoutes.remove(key) { onPacket(packet) }
    }

    fileprivate func deliverPacket(_ packet: [UInt8]) {
        if socket != nil { onPacket(packet) }
    }

    fileprivate func deliver(_ delivery: SCTPDelivery) {
        guard socket != nil else { return }
        switch delivery {
        case .notification(let event):
            onEvent(event)
        case .data(let bytes, let streamID, let ppid, let endOfRecord, let arrivalNanoseconds):
            partialMessage += bytes
            guard endOfRecord else { return }
            let message = partialMessage
            partialMessage = []
            onEvent(.message(streamID: streamID, ppid: ppid, bytes: message, arrivalNanoseconds: arrivalNanoseconds))
        case .peerClosed:
            onEvent(.endedByPeer(.sctpShutdown))
        }
    }

    /// What an association-change notification means (RFC 6458 §6.1.1's `sctp_assoc_change`,
    /// as usrsctp hands it over), nil for one vload does not act on.
    static func event(forNotification bytes: UnsafeRawBufferPointer) -> SCTPEvent? {
        guard let base = bytes.baseAddress else { return nil }
        switch Int32(vload_sctp_association_state(base, bytes.count)) {
        case SCTP_COMM_UP: return .established
        case SCTP_COMM_LOST:
            return vload_sctp_is_peer_abort(base, bytes.count) != 0 ? .endedByPeer(.sctpAbort) : .closed("the SCTP association was lost")
        case SCTP_SHUTDOWN_COMP: return .endedByPeer(.sctpShutdown)
        case SCTP_CANT_STR_ASSOC: return .closed("the SCTP association could not start")
        default: return nil
        }
    }

    fileprivate static func hop(_ key: UInt, _ body: @escaping @Sendable (SCTPAssociation) -> Void) {
        guard let route = SCTPRoutes.route(key) else { return }
        route.eventLoop.execute { body(route.association.value) }
    }
}

/// What an SCTP association reports, on its event loop.
package enum SCTPEvent: Sendable, Hashable {
    /// The four-way handshake finished (SCTP_COMM_UP): messages can be sent.
    case established
    /// One whole message, its stream and payload protocol identifier (host order), and when
    /// usrsctp delivered its last part, on the monotonic clock (before the hop to the loop).
    case message(streamID: UInt16, ppid: UInt32, bytes: [UInt8], arrivalNanoseconds: UInt64)
    /// The peer ended the association: its ABORT arrived, or its SHUTDOWN completed.
    case endedByPeer(WebRTCHangUp)
    /// The association was lost or could not start.
    case closed(String)
}

/// Why SCTP could not do what was asked; each is one line.
package enum SCTPError: Error, Sendable, Hashable, CustomStringConvertible {
    case open(errno: Int32)
    case send(errno: Int32)
    case closed

    package var description: String {
        switch self {
        case .open(let code): return "SCTP socket could not be opened (errno \(code))"
        case .send(let code): return "SCTP message could not be queued (errno \(code))"
        case .closed: return "SCTP association is closed"
        }
    }
}

private enum SCTPDelivery: Sendable {
    case notification(SCTPEvent)
    case data([UInt8], streamID: UInt16, ppid: UInt32, endOfRecord: Bool, arrivalNanoseconds: UInt64)
    case peerClosed
}

private struct SCTPRoute: Sendable {
    let association: NIOLoopBound<SCTPAssociation>
    let eventLoop: any EventLoop
    /// Packets kept while the association closes (`SCTPRoutes.capture`), nil otherwise.
    var captured: [[UInt8]]?
}

/// The associations by key, for usrsctp's callbacks; and usrsctp's one start per process.
private enum SCTPRoutes {
    private struct Table {
        var nextKey: UInt = 1
        var routes: [UInt: SCTPRoute] = [:]
    }

    private static let table = NIOLockedValueBox(Table())

    private static let started: Void = vload_sctp_init(sctpOutput)

    static func startLibrary() { _ = started }

    static func nextKey() -> UInt {
        table.withLockedValue { table in
            defer { table.nextKey += 1 }
            return table.nextKey
        }
    }

    static func add(_ key: UInt, _ route: SCTPRoute) { table.withLockedValue { $0.routes[key] = route } }
    static func route(_ key: UInt) -> SCTPRoute? { table.withLockedValue { $0.routes[key] } }

    /// From now on the association's outgoing packets are kept, not hopped to its loop.
    static func capture(_ key: UInt) { table.withLockedValue { $0.routes[key]?.captured = [] } }

    /// Forgets the association; returns the packets kept since `capture`.
    static func remove(_ key: UInt) -> [[UInt8]] {
        table.withLockedValue { $0.routes.removeValue(forKey: key)?.captured ?? [] }
    }

    /// Keeps `packet` when its association is closing (true), or leaves it to be hopped (false).
    static func keep(_ packet: [UInt8], for key: UInt) -> Bool {
        table.withLockedValue { table in
            guard table.routes[key]?.captured != nil else { return false }
            table.routes[key]?.captured?.append(packet)
            return true
        }
    }

    /// The key as the address usrsctp files the association under: an opaque value it compares
    /// and hands back, never reads through.
    static func address(_ key: UInt) -> UnsafeMutableRawPointer { UnsafeMutableRawPointer(bitPattern: key)! }
}

/// usrsctp's output callback: a packet to send for the association at `address`.
private func sctpOutput(
    address: UnsafeMutableRawPointer?, buffer: UnsafeMutableRawPointer?, length: Int, tos: UInt8, setDF: UInt8
) -> Int32 {
    guard let address, let buffer else { return 0 }
    let packet = Array(UnsafeRawBufferPointer(start: buffer, count: length))
    let key = UInt(bitPattern: address)
    if SCTPRoutes.keep(packet, for: key) { return 0 }
    SCTPAssociation.hop(key) { $0.deliverPacket(packet) }
    return 0
}

/// usrsctp's receive callback: a message (or part of one), a notification, or no data when the
/// peer closed. usrsctp hands over `data`, which is freed here.
private func sctpReceive(
    socket: OpaquePointer?, address: sctp_sockstore, data: UnsafeMutableRawPointer?, length: Int, info: sctp_rcvinfo,
    flags: Int32, ulpInfo: UnsafeMutableRawPointer?
) -> Int32 {
    defer { free(data) }
    guard let ulpInfo else { return 1 }
    let key = UInt(bitPattern: ulpInfo)
    let delivery: SCTPDelivery
    if let data {
        if vload_sctp_is_notification(flags) != 0 {
            guard let event = SCTPAssociation.event(forNotification: UnsafeRawBufferPointer(start: data, count: length)) else { return 1 }
            delivery = .notification(event)
        } else {
            delivery = .data(
                Array(UnsafeRawBufferPointer(start: data, count: length)), streamID: info.rcv_sid,
                ppid: UInt32(bigEndian: info.rcv_ppid), endOfRecord: vload_sctp_is_end_of_record(flags) != 0,
                arrivalNanoseconds: NIODeadline.now().uptimeNanoseconds)
        }
    } else {
        delivery = .peerClosed
    }
    SCTPAssociation.hop(key) { $0.deliver(delivery) }
    return 1
}
