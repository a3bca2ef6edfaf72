import Foundation

/// The `twilio-media-streams` dialect, server side: the agent's Media Streams endpoint as the
/// simulator plays it (docs/dialects.md). The call starts with Twilio's `start`; agent audio
/// goes out as µ-law 8 kHz `media` on the captured `streamSid`, each turn ends with a `mark`
/// named after its turn key, and barge-in is a `clear`.
package struct TwilioMediaStreamsServerDialect: ServerDialect {
    package let id = "twilio-media-streams"
    package let inputFormat = AudioFormat.mulaw8k
    package let outputFormat = AudioFormat.mulaw8k
    /// The session starts with Twilio's `start` message.
    package let sessionStart = ServerSessionStart.onClientStart

    package init() {}

    /// The audio as base64: `media` carries the call's `streamSid`, so the frame is built per send.
    package func prepareAudio(_ bytes: [UInt8]) -> PreparedAudio {
        PreparedAudio(base64: Data(bytes).base64EncodedString(), byteCount: bytes.count)
    }

    /// A codec for one call; Twilio stream URLs carry no query, so the target changes nothing.
    package func makeCodec(target: String) -> any ServerCodec {
        TwilioMediaStreamsServerCodec()
    }
}
