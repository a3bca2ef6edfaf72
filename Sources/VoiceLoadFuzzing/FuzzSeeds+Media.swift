import Foundation
import RTP
import VoiceLoad

extension FuzzSeeds {
    /// RTP packets as the caller's packetizer writes them, and with CSRCs, a header extension
    /// and padding.
    static func rtpPackets() -> [[UInt8]] {
        var packetizer = RTPPacketizer(payloadType: 111, ssrc: 0x1234_5678, firstSequenceNumber: 0xFFFE, firstTimestamp: 0xFFFF_FC40)
        var packets = (0..<3).map { index in packetizer.packet(payload: [0x78, UInt8(index), 0xFF], timestampStepSamples: 960) }
        packets.append(
            RTPPacket(
                header: RTPHeader(
                    payloadType: 0,
                    sequenceNumber: 7,
                    timestamp: 6_720,
                    ssrc: 1,
                    csrcs: [2, 3],
                    headerExtension: RTPHeaderExtension(profile: 0xBEDE, data: [0x10, 0xA8, 0x30, 0x30])
                ),
                payload: [1, 2, 3, 4],
                paddingBytes: 3
            )
        )
        packets.append(RTPPacket(header: RTPHeader(payloadType: 96, sequenceNumber: 0, timestamp: 0, ssrc: 0), payload: []))
        return packets.map { $0.serialized() }
    }

    /// Opus packets of a short tone and of silence, as vload encodes the caller's clips.
    static func opusPackets() -> [[UInt8]] {
        let tone = (0..<4_800).map { index in (1_200..<3_600).contains(index) ? Int16(12_000 * sin(Double(index) * 0.2)) : 0 }
        let clip = try? OpusClip.encode(AudioClip(samples: tone, sampleRateHz: 16_000))
        return clip?.frames.map(\.payload) ?? []
    }
}
