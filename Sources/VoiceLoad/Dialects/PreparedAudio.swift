import WSCore

/// A frame of audio prepared once per run for a dialect: either the complete wire frame,
/// shared as is by every connection, or the base64 text of the audio for dialects whose
/// frames carry per-connection fields (Twilio sequence numbers, OpenAI response ids).
package struct PreparedAudio: Sendable {
    /// The complete frame, when every connection sends the same bytes.
    package var sharedFrame: EncodedFrame?
    /// The audio as standard base64, when the codec builds the frame per send.
    package var base64: String?
    /// The raw audio length.
    package var byteCount: Int

    package init(sharedFrame: EncodedFrame, byteCount: Int) {
        self.sharedFrame = sharedFrame
        self.byteCount = byteCount
    }

    package init(base64: String, byteCount: Int) {
        self.base64 = base64
        self.byteCount = byteCount
    }
}
