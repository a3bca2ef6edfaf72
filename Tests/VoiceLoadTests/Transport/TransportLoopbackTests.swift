import NIOCore
import NIOPosix
import Testing
import VoiceLoad
import WSClient
import WSCore
import WSServer

@Suite("Transport loopback", .timeLimit(.minutes(1)))
struct TransportLoopbackTests {
    /// A listener that accepts every upgrade and echoes every message.
    private func startEchoListener(on group: EventLoopGroup) async throws -> WebSocketListener {
        try await WebSocketListener.start(
            port: 0,
            group: group,
            shouldUpgrade: { _ in .accept() },
            onConnection: { connection in
                connection.setEventHandler { event in
                    if case .frame(let message) = event {
                        connection.send(EncodedFrame(message.frame))
                    }
                }
            }
        ).get()
    }

    private func endpoint(_ listener: WebSocketListener, _ target: String = "/") throws -> WebSocketEndpoint {
        try WebSocketEndpoint(parsing: "ws://127.0.0.1:\(listener.port)\(target)")
    }

    private func nextFrame(_ events: WebSocketEventStream) async throws -> TimestampedFrame {
        let event = try #require(await events.next())
        guard case .frame(let frame) = event else {
            Issue.record("expected a frame, got \(event)")
            throw CancellationError()
        }
        return frame
    }

    private func nextClose(_ events: WebSocketEventStream) async -> (code: Int?, reason: String?)? {
        while let event = await events.next() {
            if case .closed(let code, let reason, _) = event { return (code, reason) }
        }
        return nil
    }

    @Test("text and binary frames echo through listener and client")
    func echo() async throws {
        try await withGroup { group in
            let listener = try await startEchoListener(on: group)
            let events = WebSocketEventStream()
            let beforeConnect = MonotonicInstant.now()
            let connection = try await WebSocketClient.connect(
                to: endpoint(listener, "/echo?token=t"),
                on: group.next(),
                onEvent: events.handler
            ).get()
            #expect(connection.openedAt >= beforeConnect)
            #expect(try await connection.eventLoop.submit { connection.isOpen }.get())

            connection.send(EncodedFrame(.text("hello, agent")))
            let text = try await nextFrame(events)
            #expect(text.frame == .text("hello, agent"))
            #expect(text.receivedAt >= connection.openedAt)

            connection.send(EncodedFrame(.binary([0, 1, 2, 3, 254, 255])))
            #expect(try await nextFrame(events).frame == .binary([0, 1, 2, 3, 254, 255]))

            connection.close()
            let close = await nextClose(events)
            #expect(close?.code == 1000)
            try await connection.closeFuture.get()
            try await listener.close().get()
        }
    }

    @Test("a 1 MiB binary frame makes the round trip intact")
    func largeFrame() async throws {
        try await withGroup { group in
            let listener = try await startEchoListener(on: group)
            let events = WebSocketEventStream()
            let connection = try await WebSocketClient.connect(to: endpoint(listener), on: group.next(), onEvent: events.handler).get()
            let payload = (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 11) }
            connection.send(EncodedFrame(.binary(payload)))
            #expect(try await nextFrame(events).frame == .binary(payload))
            connection.close()
            _ = await nextClose(events)
            try await listener.close().get()
        }
    }

    @Test("one shared encoded frame sent twice arrives intact twice (masking copies, never mutates)")
    func sharedFrameSentTwice() async throws {
        try await withGroup { group in
            let listener = try await startEchoListener(on: group)
            let events = WebSocketEventStream()
            let connection = try await WebSocketClient.connect(to: endpoint(listener), on: group.next(), onEvent: events.handler).get()
            let shared = EncodedFrame(.binary([10, 20, 30, 40, 50]))
            connection.send(shared)
            connection.send(shared)
            #expect(try await nextFrame(events).frame == .binary([10, 20, 30, 40, 50]))
            #expect(try await nextFrame(events).frame == .binary([10, 20, 30, 40, 50]))
            #expect(Array(shared.payload.readableBytesView) == [10, 20, 30, 40, 50])
            connection.close()
            _ = await nextClose(events)
            try await listener.close().get()
        }
    }

    @Test("a client close with code and reason reaches the server, and the client sees the echo")
    func clientCloseReachesServer() async throws {
        try await withGroup { group in
            let serverEvents = WebSocketEventStream()
            let listener = try await WebSocketListener.start(
                port: 0,
                group: group,
                shouldUpgrade: { _ in .accept() },
                onConnection: { connection in connection.setEventHandler(serverEvents.handler) }
            ).get()
            let clientEvents = WebSocketEventStream()
            let connection = try await WebSocketClient.connect(to: endpoint(listener), on: group.next(), onEvent: clientEvents.handler)
                .get()
            connection.send(EncodedFrame(.text("bye soon")))
            connection.close(code: 4000, reason: "test done")
            #expect(try await connection.eventLoop.submit { connection.isOpen }.get() == false)

            #expect(try await nextFrame(serverEvents).frame == .text("bye soon"))
            let serverSaw = await nextClose(serverEvents)
            #expect(serverSaw?.code == 4000)
            #expect(serverSaw?.reason == "test done")
            let clientSaw = await nextClose(clientEvents)
            #expect(clientSaw?.code == 4000)
            try await connection.closeFuture.get()
            try await listener.close().get()
        }
    }

    @Test("wss to a plain listener fails with tlsFailed")
    func tlsAgainstPlainListener() async throws {
        try await withGroup { group in
            let listener = try await startEchoListener(on: group)
            let future = WebSocketClient.connect(
                to: try WebSocketEndpoint(parsing: "wss://127.0.0.1:\(listener.port)/"),
                on: group.next(),
                onEvent: { _ in }
            )
            do {
                _ = try await future.get()
                Issue.record("a TLS handshake with a plain HTTP server must fail")
            } catch let error as WebSocketConnectError {
                guard case .tlsFailed = error else {
                    Issue.record("expected tlsFailed, got \(error)")
                    return
                }
            }
            try await listener.close().get()
        }
    }

    @Test("a refused upgrade fails with the HTTP status and body")
    func refusedUpgrade() async throws {
        try await withGroup { group in
            let listener = try await WebSocketListener.start(
                port: 0,
                group: group,
                shouldUpgrade: { _ in .reject(status: 401, body: "bad token") },
                onConnection: { _ in Issue.record("a refused upgrade must not connect") }
            ).get()
            let future = WebSocketClient.connect(to: try endpoint(listener), on: group.next(), onEvent: { _ in })
            await #expect(throws: WebSocketConnectError.upgradeRejected(status: 401, body: "bad token")) {
                try await future.get()
            }
            try await listener.close().get()
        }
    }

    @Test("a malformed upgrade request (two Sec-WebSocket-Version values) gets 400")
    func malformedUpgradeRequest() async throws {
        try await withGroup { group in
            let listener = try await startEchoListener(on: group)
            let future = WebSocketClient.connect(
                to: try endpoint(listener),
                headers: [("Sec-WebSocket-Version", "8")],
                on: group.next(),
                onEvent: { _ in }
            )
            await #expect(throws: WebSocketConnectError.upgradeRejected(status: 400, body: "invalid WebSocket upgrade request")) {
                try await future.get()
            }
            try await listener.close().get()
        }
    }

    @Test("a server close with code 4001 reaches the client with code and reason")
    func serverClose() async throws {
        try await withGroup { group in
            let listener = try await WebSocketListener.start(
                port: 0,
                group: group,
                shouldUpgrade: { _ in .accept() },
                onConnection: { connection in
                    connection.setEventHandler { _ in }
                    connection.close(code: 4001, reason: "session over")
                }
            ).get()
            let events = WebSocketEventStream()
            let connection = try await WebSocketClient.connect(to: endpoint(listener), on: group.next(), onEvent: events.handler).get()
            let close = await nextClose(events)
            #expect(close?.code == 4001)
            #expect(close?.reason == "session over")
            try await connection.closeFuture.get()
            try await listener.close().get()
        }
    }

    @Test("headers, query and subprotocol reach the listener; the chosen subprotocol is reported")
    func headersAndSubprotocol() async throws {
        try await withGroup { group in
            let listener = try await WebSocketListener.start(
                port: 0,
                group: group,
                shouldUpgrade: { request in
                    guard request.headerValue("authorization") == "Bearer s3cret",
                        request.queryValue(named: "token") == "q t",
                        request.path == "/v1/agent",
                        request.subprotocols == ["vload.v1", "auth.xyz"]
                    else { return .reject(status: 403, body: "forbidden: \(request.target)") }
                    return .accept(subprotocol: "vload.v1")
                },
                onConnection: { connection in
                    connection.setEventHandler { _ in }
                    connection.send(EncodedFrame(.text(connection.subprotocol ?? "none")))
                }
            ).get()
            let events = WebSocketEventStream()
            let connection = try await WebSocketClient.connect(
                to: endpoint(listener, "/v1/agent").addingQueryItem(name: "token", value: "q t"),
                headers: [("Authorization", "Bearer s3cret")],
                subprotocols: ["vload.v1", "auth.xyz"],
                on: group.next(),
                onEvent: events.handler
            ).get()
            #expect(connection.subprotocol == "vload.v1")
            #expect(try await nextFrame(events).frame == .text("vload.v1"))
            connection.close()
            _ = await nextClose(events)
            try await listener.close().get()
        }
    }

    @Test("connecting to a closed port fails with connectionRefused")
    func closedPort() async throws {
        try await withGroup { group in
            let listener = try await startEchoListener(on: group)
            let target = try endpoint(listener)
            try await listener.close().get()
            do {
                _ = try await WebSocketClient.connect(to: target, on: group.next(), onEvent: { _ in }).get()
                Issue.record("connecting to a closed port must fail")
            } catch let error as WebSocketConnectError {
                guard case .connectionRefused = error else {
                    Issue.record("expected connectionRefused, got \(error)")
                    return
                }
            }
        }
    }

    @Test("a server that never answers the upgrade times out")
    func upgradeTimeout() async throws {
        try await withGroup { group in
            let silent = try await ServerBootstrap(group: group)
                .childChannelInitializer { channel in channel.eventLoop.makeSucceededVoidFuture() }
                .bind(host: "127.0.0.1", port: 0).get()
            let port = try #require(silent.localAddress?.port)
            let future = WebSocketClient.connect(
                to: try WebSocketEndpoint(parsing: "ws://127.0.0.1:\(port)/"),
                on: group.next(),
                connectTimeoutMs: 100,
                onEvent: { _ in }
            )
            await #expect(throws: WebSocketConnectError.timedOut) { try await future.get() }
            try await silent.close().get()
        }
    }
}
