/// The sending side of one RTP stream (RFC 3550 §5.1): numbers and stamps the caller's paced
/// audio frames. A value with no I/O; the transport sends what it returns.
///
/// The SSRC and the first sequence number and timestamp are random (RFC 3550 §5.1 and §8 ask for
/// it), drawn from the generator given, so a seeded run numbers its packets the same every time.
package struct RTPPacketizer: Sendable, Hashable {
    package let payloadType: UInt8
    package let ssrc: UInt32
    /// The sequence number of the next packet: +1 a packet, wrapping at 65,535.
    package private(set) var nextSequenceNumber: UInt16
    /// The timestamp of the next packet: + its step in samples (960 a 20 ms Opus frame), wrapping.
    package private(set) var nextTimestamp: UInt32
    /// Whether the next packet starts a talkspurt and so carries the marker bit (RFC 3551 §4.1).
    package private(set) var startsTalkspurt = true

    /// A stream for `payloadType` (the one the SDP answer gave the codec) with a random SSRC and
    /// random first sequence number and timestamp.
    package init(payloadType: UInt8, generator: inout some RandomNumberGenerator) {
        self.init(
            payloadType: payloadType,
            ssrc: UInt32.random(in: .min ... .max, using: &generator),
            firstSequenceNumber: UInt16.random(in: .min ... .max, using: &generator),
            firstTimestamp: UInt32.random(in: .min ... .max, using: &generator)
        )
    }

    package init(payloadType: UInt8, ssrc: UInt32, firstSequenceNumber: UInt16, firstTimestamp: UInt32) {
        precondition(payloadType < 128, "an RTP payload type is 7 bits, got \(payloadType)")
        self.payloadType = payloadType
        self.ssrc = ssrc
        self.nextSequenceNumber = firstSequenceNumber
        self.nextTimestamp = firstTimestamp
    }

    /// The packet carrying `payload`, whose audio lasts `timestampStepSamples`; the stream moves on.
    package mutating func packet(payload: [UInt8], timestampStepSamples: UInt32) -> RTPPacket {
        let header = RTPHeader(
            marker: startsTalkspurt,
            payloadType: payloadType,
            sequenceNumber: nextSequenceNumber,
            timestamp: nextTimestamp,
            ssrc: ssrc
        )
        startsTalkspurt = false
        nextSequenceNumber &+= 1
        nextTimestamp &+= timestampStepSamples
        return RTPPacket(header: header, payload: payload)
    }

    /// `samples` of audio that are not sent (silence left out): the clock moves on, the sequence
    /// numbers do not, and the next packet starts a talkspurt.
    package mutating func skip(samples: UInt32) {
        nextTimestamp &+= samples
        startsTalkspurt = true
    }

    /// The next packet starts a talkspurt (the caller starts speaking after a pause).
    package mutating func beginTalkspurt() {
        startsTalkspurt = true
    }
}
