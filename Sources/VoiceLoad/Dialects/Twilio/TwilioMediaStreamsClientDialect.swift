import Foundation
import WSClient

/// The `twilio-media-streams` dialect, client side: vload impersonates Twilio towards an
/// agent's Media Streams WebSocket (docs/dialects.md). It sends `connected` and `start` on
/// open, then a continuous 20 ms cadence of µ-law 8 kHz `media`, echoes the agent's `mark`s
/// once the audio before them has played, and treats `clear` as barge-in. There is no ready
/// or end-of-turn message on this wire.
///
/// Twilio strips query strings from stream URLs, so `--token` goes into the session parameters:
/// `parameters["token"]` travels in `start.customParameters` instead (docs/telephony.md).
package struct TwilioMediaStreamsClientDialect: ClientDialect {
    package let id = "twilio-media-streams"
    package let apiVersion = "Media Streams, protocol Call 1.0.0 (as `connected` says)"
    /// µ-law 8 kHz, the telephony format (docs/telephony.md).
    package let inputFormat = AudioFormat.mulaw8k
    package let outputFormat = AudioFormat.mulaw8k
    package let readySignal = ReadySignal.onOpen
    package let turnEndSignal = TurnEndSignal.audioGap
    package let authentication = AuthenticationStyle.sessionParameter(name: "token")
    /// 20 ms, Twilio's fixed cadence.
    package let defaultFrameMs = 20
    /// Twilio sends `stop` and closes the socket at once; agent servers answer `stop` with
    /// nothing, so waiting for them would hold every call open for the hang-up timeout.
    package let awaitsSessionEndOnHangUp = false
    private let callCounter = TwilioCallCounter()

    /// The session parameter that holds the account's auth token (`--twilio-auth-token`).
    package static let authTokenParameter = "auth_token"

    package init() {}

    /// `X-Twilio-Signature` over the session's URL when the parameters hold an auth token.
    package func upgradeHeaders(for endpoint: WebSocketEndpoint, parameters: [String: JSONValue]) -> [HTTPHeaderField] {
        guard case .string(let authToken)? = parameters[Self.authTokenParameter], !authToken.isEmpty else { return [] }
        let signature = TwilioSignature.signature(url: endpoint.urlString, authToken: authToken)
        return [HTTPHeaderField(name: TwilioSignature.headerName, value: signature)]
    }

    /// The audio as base64: each `media` message carries its own sequence number, chunk and
    /// timestamp, so the frame is built per send.
    package func prepareAudio(_ bytes: [UInt8]) -> PreparedAudio {
        PreparedAudio(base64: Data(bytes).base64EncodedString(), byteCount: bytes.count)
    }

    /// A codec for the next call of this dialect (its own SIDs). `parameters`:
    /// `custom_parameters` (an object) becomes `start.customParameters`, `token` is added to
    /// it, `account_sid` replaces the default account SID.
    package func makeCodec(parameters: [String: JSONValue]) -> any ClientCodec {
        TwilioMediaStreamsClientCodec(
            identity: TwilioCallIdentity(callNumber: callCounter.take(), parameters: parameters),
            parameters: parameters
        )
    }
}
