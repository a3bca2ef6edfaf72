import WSClient
import WebRTC

/// Why a WebRTC call did not open; each is one line in the session's error.
package enum WebRTCConnectError: Error, Sendable, CustomStringConvertible {
    /// The signalling POST failed as an HTTP request (refused, DNS, TLS, timed out).
    case http(WebSocketConnectError)
    /// The POST was answered with an HTTP status other than the answer's (`reason` says it).
    case signallingRejected(status: Int, reason: String)
    /// The POST was answered, but not with a usable SDP answer.
    case signalling(String)
    /// ICE, DTLS, SRTP or the data channel failed before the call opened.
    case transport(WebRTCTransportFailure)
    /// Connected this far (`reached`), and no data channel open within the connect's timeout.
    case timedOut(reached: String)
    /// vload could not set the call up (its UDP socket, its Opus decoder).
    case setup(String)

    package var description: String {
        switch self {
        case .http(let error): return "SmallWebRTC offer POST failed: \(error)"
        case .signallingRejected(_, let reason), .signalling(let reason): return reason
        case .transport(let failure): return failure.description
        case .timedOut(let reached): return "no WebRTC data channel open within the connect timeout (\(reached))"
        case .setup(let reason): return "WebRTC call setup failed: \(reason)"
        }
    }
}
