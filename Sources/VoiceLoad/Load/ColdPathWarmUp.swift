import Foundation
import NIOCore
import NIOPosix
import Synchronization
import WebRTC
import WSClient
import WSCore
import WSServer

/// Runs, before a run's clock starts, the code a process otherwise runs for the first time
/// inside its first sessions, on an event loop.
///
/// The first time a process connects a WebSocket, renders or parses JSON with Foundation, or
/// formats a number, the Swift runtime looks up protocol conformances and instantiates type
/// metadata, and Foundation loads its ICU data: 1-3 ms each, once. Inside the first sessions
/// that work holds the loop, so replies wait in the socket (the probe's `receive_lag_ms`), and
/// a short run's p99 receive lag was its startup, not its load: 2 of 15 two-client runs
/// against an idle `vload serve` were called invalid. Here the same code runs first: one
/// WebSocket connection over loopback to a listener of our own (nothing reaches the
/// endpoint), a JSON frame each way, a CSV number. A WebRTC run warms its call's code as well
/// (`WebRTCWarmUp`: NSS under libsrtp2, DTLS, STUN, usrsctp) and an Opus frame each way.
package enum ColdPathWarmUp {
    /// The warm-up, on `loop`, bounded by 2 s to connect and 2 s more to close. Whether the
    /// loopback exchange went through (a frame echoed, the close handshake done) and, with
    /// `webRTC`, the WebRTC code ran; a warm-up that could not leaves the run as it was and
    /// never stops it.
    @discardableResult
    package static func run(on loop: any EventLoop, webRTC: Bool = false) async -> Bool {
        warmFoundation()
        let warmedWebRTC = webRTC ? WebRTCWarmUp.run() && warmOpus() : true
        return await warmWebSocket(on: loop) && warmedWebRTC
    }

    /// A 20 ms frame of silence encoded and decoded.
    private static func warmOpus() -> Bool {
        guard var encoder = try? OpusFrameEncoder(), var decoder = try? OpusPacketDecoder(),
            let packet = try? encoder.encode(ArraySlice(repeating: 0, count: OpusClip.frameSamples))
        else { return false }
        return (try? decoder.decode(packet))?.count == OpusClip.frameSamples
    }

    /// JSON both ways (an object with every kind of value, escapes, a fraction) and the CSV
    /// rows' number format.
    private static func warmFoundation() {
        let object: [String: JSONValue] = [
            "type": "warm_up", "count": 1, "ratio": 0.5, "on": true, "none": .null,
            "list": [1, "two", ["three": 3.0]], "text": "a \"quoted\" line\n",
        ]
        _ = JSONFrame.object(in: .text(JSONFrame.text(object)))
        _ = CSVRowWriter.format(1.5)
    }

    /// One connection to a loopback listener of our own: upgrade, a text frame each way,
    /// the close handshake; given up after 2 s.
    private static func warmWebSocket(on loop: any EventLoop) async -> Bool {
        guard
            let listener = try? await WebSocketListener.start(
                host: "127.0.0.1",
                port: 0,
                group: loop,
                shouldUpgrade: { _ in .accept() },
                onConnection: { connection in
                    connection.setEventHandler { event in
                        guard case .frame(let received) = event else { return }
                        connection.send(EncodedFrame(received.frame))
                        connection.close()
                    }
                }
            ).get()
        else { return false }
        defer { _ = listener.close() }
        let echoed = EchoSeen()
        guard let endpoint = try? WebSocketEndpoint(parsing: "ws://127.0.0.1:\(listener.port)/warm-up"),
            let connection = try? await WebSocketClient.connect(
                to: endpoint,
                on: loop,
                connectTimeoutMs: 2_000,
                onEvent: { event in
                    if case .frame = event { echoed.flag.store(true, ordering: .relaxed) }
                }
            ).get()
        else { return false }
        let giveUp = loop.scheduleTask(in: .seconds(2)) { connection.abort() }
        connection.send(EncodedFrame(.text(JSONFrame.text(["type": "warm_up"]))))
        _ = try? await connection.closeFuture.get()
        giveUp.cancel()
        return echoed.flag.load(ordering: .relaxed)
    }

    private final class EchoSeen: Sendable {
        let flag = Atomic(false)
    }
}
