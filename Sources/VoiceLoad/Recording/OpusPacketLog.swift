/// The agent's Opus packets of one WebRTC call, every one in the order the caller decoded them,
/// kept for its recording in place of their decoded audio (docs/recordings.md): a 20 ms packet
/// of speech is 60-240 bytes where its PCM16 at 48 kHz is 1,920, and a packet of silence 3.
/// The payloads sit end to end in one array, with where each ends.
///
/// Decoded again when the recording is written, after the call, by a fresh decoder that sees
/// the same packets in the same order as the live one did, so its samples are the live
/// decoder's, sample for sample: libopus is deterministic, and a packet it refuses changes
/// nothing (the live path passes such a packet on as nothing, and it is not kept).
package struct OpusPacketLog: Sendable {
    /// What a packet costs beyond its payload: where it ends.
    package static let bytesPerPacket = MemoryLayout<UInt32>.size
    /// The format of what `decodedPCM16()` gives: what `OpusPacketDecoder` decodes to.
    package static let decodedFormat = AudioFormat.pcm16(OpusClip.sampleRateHz)

    private var payloads: [UInt8] = []
    private var ends: [UInt32] = []

    package init() {}

    package var count: Int { ends.count }
    /// Keeps `payload` as the next packet, at index `count - 1`.
    package mutating func append(_ payload: [UInt8]) {
        payloads.append(contentsOf: payload)
        ends.append(UInt32(payloads.count))
    }

    /// Packet `index`'s payload.
    private func payload(_ index: Int) -> ArraySlice<UInt8> {
        let start = index == 0 ? 0 : Int(ends[index - 1])
        return payloads[start..<Int(ends[index])]
    }

    /// Every packet decoded in order by one fresh decoder, as PCM16 bytes (`decodedFormat`); a
    /// packet libopus refuses gives none.
    package func decodedPCM16() -> [[UInt8]] {
        guard !ends.isEmpty else { return [] }
        var decoder: OpusPacketDecoder
        do {
            decoder = try OpusPacketDecoder()
        } catch {
            preconditionFailure("libopus cannot make a decoder: \(error)")
        }
        var decoded: [[UInt8]] = []
        decoded.reserveCapacity(ends.count)
        for index in ends.indices {
            decoded.append((try? decoder.decodePCM16(Array(payload(index)))) ?? [])
        }
        return decoded
    }
}
