import NIOCore
import RTP
import WSCore
import WebRTC

/// An open WebRTC call (`WebRTCCallSession` on its event loop), as `VirtualClient` uses a
/// connection: frames out, the close, and the figures the session's row reports.
package final class WebRTCCallConnection: CallerConnection {
    private let session: NIOLoopBound<WebRTCCallSession>
    /// When the data channel opened: the call's open, as a WebSocket's 101 is its.
    package let openedAt: MonotonicInstant
    package let phases: WebRTCConnectPhases

    init(session: NIOLoopBound<WebRTCCallSession>, openedAt: MonotonicInstant, phases: WebRTCConnectPhases) {
        self.session = session
        self.openedAt = openedAt
        self.phases = phases
    }

    /// Opens a call to `target` on `eventLoop`: the connect's failure is a `WebRTCConnectError`.
    /// `onEvent` gets the call's frames, failure and close on that loop, as a WebSocket's.
    package static func connect(
        to target: WebRTCCallTarget, frameMs: Int, on eventLoop: any EventLoop, timeoutMs: Int64,
        onEvent: @escaping @Sendable (WebSocketConnectionEvent) -> Void
    ) -> EventLoopFuture<WebRTCCallConnection> {
        let opening = eventLoop.makePromise(of: WebRTCCallConnection.self)
        eventLoop.execute {
            do {
                let session = try WebRTCCallSession(
                    identity: target.identity, localHost: target.localHost, frameMs: frameMs, eventLoop: eventLoop, opening: opening, onEvent: onEvent)
                session.start(target: target, timeoutMs: timeoutMs)
            } catch {
                opening.fail(WebRTCConnectError.setup("\(error)"))
            }
        }
        return opening.futureResult
    }

    package func send(_ frame: EncodedFrame) { session.value.send(frame) }

    package func close(code: Int, reason: String) { session.value.close() }

    /// The agent's RTP stream so far (RFC 3550: received, expected, lost, late, jitter).
    package var receiveStatistics: RTPReceiveStatistics { session.value.receiveStatistics }
    /// The SRTP profile the call's DTLS handshake agreed.
    package var srtpProfile: SRTPProfile? { session.value.srtpProfile }
}
