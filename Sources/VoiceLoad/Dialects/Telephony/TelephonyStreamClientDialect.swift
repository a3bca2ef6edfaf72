import Foundation

/// The `telnyx-media-streaming`, `plivo-audio-streaming` and `exotel-voicebot` dialects, client
/// side: vload impersonates the telephony provider towards an agent's media-stream WebSocket
/// (docs/telephony.md). It sends the provider's handshake on open, then a continuous 20 ms
/// cadence of `media` (µ-law 8 kHz; Exotel 16-bit PCM 8 kHz), confirms the agent's playback
/// labels once the audio before them has played, and treats the agent's `clear` (Plivo
/// `clearAudio`) as barge-in. There is no ready or end-of-turn message on these wires.
package struct TelephonyStreamClientDialect: ClientDialect {
    package let provider: TelephonyProvider
    package var id: String { provider.dialectID }
    package var apiVersion: String { provider.apiVersion }
    package var inputFormat: AudioFormat { provider.format }
    package var outputFormat: AudioFormat { provider.format }
    package let readySignal = ReadySignal.onOpen
    package let turnEndSignal = TurnEndSignal.audioGap
    /// Exotel passes `--token` in `start.custom_parameters`; Telnyx and Plivo stream URLs keep
    /// their query string, so a token goes in the URL.
    package var authentication: AuthenticationStyle {
        provider == .exotel ? .sessionParameter(name: "token") : .none
    }
    /// 20 ms, the providers' cadence.
    package let defaultFrameMs = 20
    /// The provider sends `stop` and closes at once; agent servers answer it with nothing.
    package let awaitsSessionEndOnHangUp = false
    private let callCounter = TwilioCallCounter()

    package init(provider: TelephonyProvider) {
        self.provider = provider
    }

    /// The audio as base64: each `media` message carries its own counters, so the frame is built per send.
    package func prepareAudio(_ bytes: [UInt8]) -> PreparedAudio {
        PreparedAudio(base64: Data(bytes).base64EncodedString(), byteCount: bytes.count)
    }

    /// A codec for the next call of this dialect (its own ids). `parameters`: `from`, `to`,
    /// `account_sid` (Exotel), `account_id` (Plivo), `client_state` (Telnyx),
    /// `custom_parameters` and `token` (Exotel `start.custom_parameters`).
    package func makeCodec(parameters: [String: JSONValue]) -> any ClientCodec {
        TelephonyStreamClientCodec(
            provider: provider,
            call: TelephonyCall(provider: provider, callNumber: callCounter.take(), parameters: parameters),
            parameters: parameters
        )
    }
}
