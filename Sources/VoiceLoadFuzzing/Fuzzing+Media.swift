import RTP
import VoiceLoad

extension Fuzzing {
    /// The RTP target: the bytes as one packet (`RTPPacket(parsing:)`). Checks: a packet read is
    /// as long as the bytes, and written and read again it is the same packet; an error is one
    /// line.
    static func rtpPacketParsing(_ payload: [UInt8]) -> FuzzOutcome {
        do {
            let packet = try RTPPacket(parsing: payload)
            var outcome = FuzzOutcome()
            outcome.check(packet.byteCount == payload.count, "a packet of \(packet.byteCount) bytes read from \(payload.count)")
            outcome.check((try? RTPPacket(parsing: packet.serialized())) == packet, "a packet that does not read back as written")
            return outcome
        } catch {
            var outcome = FuzzOutcome(accepted: false)
            outcome.check(!error.description.contains(where: \.isNewline), "error of more than one line: \(error)")
            return outcome
        }
    }

    /// The Opus target: the bytes as one agent packet, through a fresh `OpusPacketDecoder`.
    /// Checks: a decoded packet is whole 2.5 ms steps of 48 kHz audio, at most 120 ms; an error is
    /// libopus's (or the empty packet's) and one line.
    static func opusPacketDecoding(_ payload: [UInt8]) -> FuzzOutcome {
        do {
            var decoder = try OpusPacketDecoder()
            let samples = try decoder.decode(payload)
            var outcome = FuzzOutcome()
            outcome.check(
                !samples.isEmpty && samples.count % 120 == 0 && samples.count <= OpusPacketDecoder.maximumPacketSamples,
                "a packet decoded to \(samples.count) samples"
            )
            return outcome
        } catch {
            var outcome = FuzzOutcome(accepted: false)
            outcome.check(!error.description.contains(where: \.isNewline), "error of more than one line: \(error)")
            return outcome
        }
    }
}
