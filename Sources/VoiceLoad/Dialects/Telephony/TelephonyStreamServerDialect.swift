import Foundation

/// The Telnyx, Plivo and Exotel dialects, server side: the agent's media-stream endpoint as the
/// simulator plays it (docs/telephony.md). The call starts with the provider's `start`; agent
/// audio goes out as the provider's audio message on the captured stream id, each turn ends with
/// a playback label named after its turn key, and barge-in is the provider's clear message.
package struct TelephonyStreamServerDialect: ServerDialect {
    package let provider: TelephonyProvider
    package var id: String { provider.dialectID }
    package var inputFormat: AudioFormat { provider.format }
    package var outputFormat: AudioFormat { provider.format }
    /// The session starts with the provider's `start` message.
    package let sessionStart = ServerSessionStart.onClientStart

    package init(provider: TelephonyProvider) {
        self.provider = provider
    }

    /// The audio as base64: the audio message carries the call's stream id, so the frame is built per send.
    package func prepareAudio(_ bytes: [UInt8]) -> PreparedAudio {
        PreparedAudio(base64: Data(bytes).base64EncodedString(), byteCount: bytes.count)
    }

    package func makeCodec(target: String) -> any ServerCodec {
        TelephonyStreamServerCodec(provider: provider)
    }
}
