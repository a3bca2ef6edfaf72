import WSClient
import WebRTC

/// Where a WebRTC call goes and what every call of the run shares: the signalling URL the SDP
/// offer is posted to, how it is posted, the label of the data channel the call opens, the
/// run's DTLS identity, made once at start (docs/webrtc.md: one P-256 key and certificate a run),
/// and the local address every call binds and offers.
package struct WebRTCCallTarget: Sendable {
    package let offerEndpoint: HTTPEndpoint
    package let signalling: WebRTCSignalling
    package let channelLabel: String
    package let identity: DTLSIdentity
    /// The local address toward the signalling host, IPv4 or IPv6 (`ICELocalAddress`).
    package let localHost: String

    package init(
        offerEndpoint: HTTPEndpoint, signalling: WebRTCSignalling, channelLabel: String, identity: DTLSIdentity, localHost: String
    ) {
        self.offerEndpoint = offerEndpoint
        self.signalling = signalling
        self.channelLabel = channelLabel
        self.identity = identity
        self.localHost = localHost
    }

    /// The target of a dialect's run: the run's DTLS identity made, the signalling host looked
    /// up (`SignallingHostLookup`) and the local address toward it found; any of them failing is
    /// a one-line input error naming `dialect`.
    package static func make(
        dialect: String, offerEndpoint: HTTPEndpoint, signalling: WebRTCSignalling, channelLabel: String
    ) throws(InputError) -> WebRTCCallTarget {
        let identity: DTLSIdentity
        do {
            identity = try DTLSIdentity()
        } catch {
            throw InputError("\(dialect): cannot make the run's DTLS certificate: \(error)")
        }
        let remote = try SignallingHostLookup.address(host: offerEndpoint.host, port: offerEndpoint.port, dialect: dialect)
        let localHost: String
        do {
            localHost = try ICELocalAddress.toward(remote)
        } catch {
            throw InputError("\(dialect): \(error)")
        }
        return WebRTCCallTarget(
            offerEndpoint: offerEndpoint, signalling: signalling, channelLabel: channelLabel, identity: identity, localHost: localHost)
    }

    /// The same target with a DTLS identity of its own that offers `srtpProfiles`, most preferred
    /// first (`--srtp-profiles`); failing to make it is a one-line input error naming `dialect`.
    package func offering(srtpProfiles: [SRTPProfile], dialect: String) throws(InputError) -> WebRTCCallTarget {
        let identity: DTLSIdentity
        do {
            identity = try DTLSIdentity(srtpProfiles: srtpProfiles)
        } catch {
            throw InputError("\(dialect): cannot make the run's DTLS certificate: \(error)")
        }
        return WebRTCCallTarget(
            offerEndpoint: offerEndpoint, signalling: signalling, channelLabel: channelLabel, identity: identity, localHost: localHost)
    }

    /// The headers the offer's POST carries beyond its content type (credentials included).
    package var headers: [HTTPHeaderField] {
        switch signalling {
        case .smallWebRTC: return []
        case .openAIRealtimeCalls(let request): return request.headers
        }
    }
}

/// How the SDP offer reaches the agent and its answer comes back (docs/webrtc.md).
package enum WebRTCSignalling: Sendable, Hashable {
    /// Pipecat SmallWebRTC: `POST /api/offer` with JSON, answered with JSON.
    case smallWebRTC
    /// OpenAI Realtime: `POST /v1/realtime/calls` with a form, answered with the SDP itself.
    case openAIRealtimeCalls(OpenAIRealtimeCallRequest)
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
