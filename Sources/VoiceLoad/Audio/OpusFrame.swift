/// One Opus packet of the caller's audio and how far it moves the RTP clock.
package struct OpusFrame: Sendable, Hashable {
    /// The encoded packet, as it goes in an RTP payload (RFC 7587).
    package var payload: [UInt8]
    /// The RTP timestamp step of this packet: its duration in samples at 48 kHz (960 for 20 ms).
    package var timestampStepSamples: UInt32

    package init(payload: [UInt8], timestampStepSamples: UInt32) {
        self.payload = payload
        self.timestampStepSamples = timestampStepSamples
    }
}
