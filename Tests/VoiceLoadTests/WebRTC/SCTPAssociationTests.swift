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
