import NIOCore
import WSClient
import WSCore

/// A WebRTC call's connect (docs/webrtc.md): signalling, ICE, DTLS and the data channel, all
/// within the connect step's timeout; the call opens when the data channel does.
extension VirtualClient {
    func connectWebRTC(to target: WebRTCCallTarget, timeoutMs: Int) async throws {
        let future = startWebRTCConnect(to: target, timeoutMs: timeoutMs)
        let connection: WebRTCCallConnection
        do {
            connection = try await connectionUnlessWoundDown(future)
        } catch let error as WebRTCConnectError {
            throw Self.failure(of: error, timeoutMs: timeoutMs)
        } catch let woundDown as SessionWoundDown {
            throw woundDown
        } catch {
            throw SessionFailure(.connectFailed, .text("\(error)"))
        }
        webRTCOpened(connection)
    }

    /// Out of line, as every synchronous part of an async step (`VirtualClient+Steps`).
    @inline(never)
    private func startWebRTCConnect(to target: WebRTCCallTarget, timeoutMs: Int) -> EventLoopFuture<WebRTCCallConnection> {
        connectStarted(at: .now())
        return WebRTCCallConnection.connect(
            to: target, frameMs: plan.frameMs, on: eventLoop, timeoutMs: Int64(timeoutMs),
            onEvent: { [self, serial = attemptSerial] event in
                self.enter(.connection(event, attemptSerial: serial))
            })
    }

    @inline(never)
    private func webRTCOpened(_ connection: WebRTCCallConnection) {
        self.connection = connection
        webRTCCall = connection
        session.webRTCPhases = connection.phases
        perform(attempt.connectionOpened(at: connection.openedAt, now: .now()))
        // A WebRTC call's microphone track streams from the call's open, silence until the
        // caller speaks, as a browser's does (docs/webrtc.md); an answerer may take a caller
        // that sends nothing for seconds to be gone.
        openMicrophone()
    }

    /// The session failure a failed WebRTC connect is counted as.
    static func failure(of error: WebRTCConnectError, timeoutMs: Int) -> SessionFailure {
        switch error {
        case .http(.timedOut):
            return SessionFailure(.timeout(step: "connect"), .text("no answer to the SDP offer within \(timeoutMs) ms"))
        case .http(let error): return failure(of: error, timeoutMs: timeoutMs)
        case .signallingRejected(let status, let reason): return SessionFailure(.signallingRejected(status: status), .text(reason))
        case .signalling(let reason): return SessionFailure(.signallingFailed, .text(reason))
        case .transport(.ice(let failure)): return SessionFailure(.iceFailed, .text(failure.description))
        case .transport(.dtls(let failure)): return SessionFailure(.dtlsFailed, .text(failure.description))
        case .transport(.srtp(let error)): return SessionFailure(.dtlsFailed, .text(error.description))
        case .transport(.sctp(let detail)): return SessionFailure(.dataChannelFailed, .text("WebRTC data channel failed: \(detail)"))
        case .transport(.channel(let detail)): return SessionFailure(.connectFailed, .text("WebRTC socket failed: \(detail)"))
        case .timedOut: return SessionFailure(.timeout(step: "connect"), .text(error.description))
        case .setup(let reason): return SessionFailure(.generatorError, .text(reason))
        }
    }
}
