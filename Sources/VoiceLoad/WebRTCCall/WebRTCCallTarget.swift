import WSClient
import WebRTC

/// Where a WebRTC call goes and what every call of the run shares: the signalling URL the SDP
/// offer is posted to (Pipecat SmallWebRTC's `POST /api/offer`) and the run's DTLS identity,
/// made once at start (docs/webrtc.md: one P-256 key and certificate a run).
package struct WebRTCCallTarget: Sendable {
    package let offerEndpoint: HTTPEndpoint
    package let identity: DTLSIdentity

    package init(offerEndpoint: HTTPEndpoint, identity: DTLSIdentity) {
        self.offerEndpoint = offerEndpoint
        self.identity = identity
    }
}

/// The phases of a WebRTC call's connect (docs/webrtc.md), each in µs on the monotonic clock:
/// the signalling POST's round trip, ICE (first check to the selected pair), DTLS (first record
/// to keys exported) and the data channel (SCTP INIT to the peer's DATA_CHANNEL_ACK).
package struct WebRTCConnectPhases: Sendable, Hashable {
    package var signallingUs: Int64
    package var iceUs: Int64
    package var dtlsUs: Int64
    package var dataChannelOpenUs: Int64

    package init(signallingUs: Int64, iceUs: Int64, dtlsUs: Int64, dataChannelOpenUs: Int64) {
        self.signallingUs = signallingUs
        self.iceUs = iceUs
        self.dtlsUs = dtlsUs
        self.dataChannelOpenUs = dataChannelOpenUs
    }
}
