import NIOCore
import NIOPosix
import Testing

@testable import WebRTC

/// Two usrsctp associations in this process, each one's packets handed straight to the other on
/// one event loop (no DTLS between them): the association comes up from both ends' INITs (RFC
/// 8841 §9.3 has both initiate), and messages arrive whole, in order, with their stream and PPID.
@Suite("SCTP through usrsctp")
struct SCTPAssociationTests {
    static let messageCount = 20
    /// aiortc's largest message (its a=max-message-size), many packets long.
    static let largeMessageBytes = 65_536

    struct Closed: Error { let reason: String }

    final class Pair {
        var a: SCTPAssociation?
        var b: SCTPAssociation?
        var established = 0
        var received: [(streamID: UInt16, ppid: UInt32, bytes: [UInt8])] = []
        let done: EventLoopPromise<Void>
        var finished = false

        init(done: EventLoopPromise<Void>) { self.done = done }

        func start(on loop: any EventLoop) throws {
            a = try SCTPAssociation(
                eventLoop: loop, remotePort: SCTPAssociation.defaultPort, onPacket: { [unowned self] in self.b?.receive($0) },
                onEvent: { [unowned self] in self.handle($0, atA: true) })
            b = try SCTPAssociation(
                eventLoop: loop, remotePort: SCTPAssociation.defaultPort, onPacket: { [unowned self] in self.a?.receive($0) },
                onEvent: { [unowned self] in self.handle($0, atA: false) })
        }

        private func handle(_ event: SCTPEvent, atA: Bool) {
            switch event {
            case .established:
                established += 1
                guard atA, let a else { return }
                do {
                    for index in 0..<SCTPAssociationTests.messageCount {
                        try a.send(Array("message \(index)".utf8), streamID: 1, ppid: 51)
                    }
                    try a.send(Array(repeating: 0x5A, count: SCTPAssociationTests.largeMessageBytes), streamID: 3, ppid: 53)
                } catch {
                    fail(error)
                }
            case .message(let streamID, let ppid, let bytes, _):
                guard !atA else { return }
                received.append((streamID, ppid, bytes))
                if received.count == SCTPAssociationTests.messageCount + 1 { finish() }
            case .endedByPeer(let hangUp):
                fail(Closed(reason: hangUp.description))
            case .closed(let reason):
                fail(Closed(reason: reason))
            }
        }

        func fail(_ error: any Error) {
            guard !finished else { return }
            finished = true
            close()
            done.fail(error)
        }

        private func finish() {
            guard !finished else { return }
            finished = true
            close()
            done.succeed(())
        }

        func close() {
            a?.close()
            b?.close()
        }
    }

    @Test("both ends' INITs bring the association up; 20 texts and a 64 KiB binary message arrive whole and in order")
    func pairExchangesMessages() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let loop = group.next()
        let done = loop.makePromise(of: Void.self)
        let pair = try await loop.submit {
            let pair = Pair(done: done)
            try pair.start(on: loop)
            // Bounds the test in time should a packet go missing; no latency is asserted.
            let bound = NIOLoopBound(pair, eventLoop: loop)
            loop.scheduleTask(in: .seconds(20)) { bound.value.fail(ChannelError.ioOnClosedChannel) }
            return NIOLoopBound(pair, eventLoop: loop)
        }.get()
        try await done.futureResult.get()
        let (established, received) = try await loop.submit { (pair.value.established, pair.value.received) }.get()
        #expect(established == 2)
        let texts = received.filter { $0.ppid == 51 }
        #expect(texts.map { String(decoding: $0.bytes, as: UTF8.self) } == (0..<Self.messageCount).map { "message \($0)" })
        #expect(texts.allSatisfy { $0.streamID == 1 })
        let binary = received.filter { $0.ppid == 53 }
        #expect(binary.count == 1 && binary.first?.streamID == 3)
        #expect(binary.first?.bytes == Array(repeating: 0x5A, count: Self.largeMessageBytes))
        try await group.shutdownGracefully()
    }

    @Test("closing sends the ABORT to the peer before close returns")
    func closeAborts() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let loop = group.next()
        let bothUp = loop.makePromise(of: Void.self)
        /// The two ends, a's packets and how many ends are up, on the loop.
        final class Ends {
            var a: SCTPAssociation?
            var b: SCTPAssociation?
            var fromA: [[UInt8]] = []
            var up = 0
        }
        let ends = try await loop.submit { () throws -> NIOLoopBound<Ends> in
            let ends = Ends()
            let countUp: (SCTPEvent) -> Void = { [unowned ends] event in
                if event == .established { ends.up += 1 }
                if ends.up == 2 { bothUp.succeed() }
            }
            ends.a = try SCTPAssociation(
                eventLoop: loop, remotePort: SCTPAssociation.defaultPort,
                onPacket: { [unowned ends] in
                    ends.fromA.append($0)
                    ends.b?.receive($0)
                }, onEvent: countUp)
            ends.b = try SCTPAssociation(
                eventLoop: loop, remotePort: SCTPAssociation.defaultPort, onPacket: { [unowned ends] in ends.a?.receive($0) },
                onEvent: countUp)
            // Bounds the test in time should a packet go missing; no latency is asserted.
            loop.scheduleTask(in: .seconds(20)) { bothUp.fail(ChannelError.ioOnClosedChannel) }
            return NIOLoopBound(ends, eventLoop: loop)
        }.get()
        try await bothUp.futureResult.get()
        let abort = try await loop.submit { () -> [[UInt8]] in
            let before = ends.value.fromA.count
            ends.value.a?.close()
            return Array(ends.value.fromA[before...])
        }.get()
        // RFC 9260 §3: a 12-byte common header, then the chunk; ABORT is chunk type 6.
        #expect(abort.count == 1 && abort.first.map { $0.count >= 16 && $0[12] == 6 } == true)
        try await loop.submit { ends.value.b?.close() }.get()
        try await group.shutdownGracefully()
    }

    /// An association-change notification as usrsctp lays it out (RFC 6458 §6.1.1, host order):
    /// type, flags, length, state, error, streams out and in, association id, then `info`.
    static func notification(state: UInt16, info: [UInt8] = []) -> [UInt8] {
        func bytes<T: FixedWidthInteger>(_ value: T) -> [UInt8] { withUnsafeBytes(of: value.littleEndian) { Array($0) } }
        let length = UInt32(20 + info.count)
        return bytes(UInt16(0x0001)) + bytes(UInt16(0)) + bytes(length) + bytes(state) + bytes(UInt16(0)) + bytes(UInt16(1_024))
            + bytes(UInt16(1_024)) + bytes(UInt32(1)) + info
    }

    @Test("a lost association carrying the peer's ABORT is its hang-up; one lost here, or never started, is a failure")
    func notificationEvents() {
        func event(_ bytes: [UInt8]) -> SCTPEvent? { bytes.withUnsafeBytes { SCTPAssociation.event(forNotification: $0) } }
        #expect(event(Self.notification(state: 0x0001)) == .established)
        // usrsctp copies a received ABORT chunk (type 6, flags 0, length 4) into `sac_info`.
        #expect(event(Self.notification(state: 0x0002, info: [6, 0, 0, 4])) == .endedByPeer(.sctpAbort))
        #expect(event(Self.notification(state: 0x0002)) == .closed("the SCTP association was lost"))
        #expect(event(Self.notification(state: 0x0004)) == .endedByPeer(.sctpShutdown))
        #expect(event(Self.notification(state: 0x0005)) == .closed("the SCTP association could not start"))
        #expect(event(Self.notification(state: 0x0003)) == nil)  // SCTP_RESTART
        #expect(event(Array(Self.notification(state: 0x0002).prefix(12))) == nil)  // too short to read
    }

    @Test("a closed association refuses to send, and what usrsctp still delivers for it is dropped")
    func closedRefuses() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let loop = group.next()
        let refused = try await loop.submit { () throws -> SCTPError? in
            let association = try SCTPAssociation(eventLoop: loop, remotePort: 5_000, onPacket: { _ in }, onEvent: { _ in })
            association.close()
            do {
                try association.send([1], streamID: 1, ppid: 51)
                return nil
            } catch {
                return error as? SCTPError
            }
        }.get()
        #expect(refused == .closed)
        try await group.shutdownGracefully()
    }
}
