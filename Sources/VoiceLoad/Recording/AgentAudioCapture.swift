import WSCore

/// The agent's audio of one call attempt as the caller's simulated playback placed it
/// (docs/recordings.md): each chunk where it began to play, the flushes that cut what was still
/// queued (a barge-in's acknowledgement), and the stalls between chunks of one turn. Kept only
/// for a call that may be recorded; the chunks are held as they arrived (base64 text or bytes,
/// shared, not copied) and decoded only when the recording is written, after the call. A WebRTC
/// call's chunks are held as the Opus packets they were decoded from (`packets`), every packet
/// of the call in order, and decoded again then.
package struct AgentAudioCapture: Sendable {
    /// A chunk of agent audio and where it played.
    package struct Played: Sendable {
        /// Its audio: the chunk as it arrived, or the index in `packets` of the Opus packet it
        /// was decoded from.
        package var audio: Audio
        package var durationUs: Int64
        /// When it began to play (after the audio queued before it, or the jitter buffer).
        package var startsAt: MonotonicInstant
        /// When it arrived and was queued: a flush after this cuts it.
        package var queuedAt: MonotonicInstant

        package var endsAt: MonotonicInstant { startsAt.advanced(byMicroseconds: durationUs) }
    }

    package enum Audio: Sendable {
        case chunk(AgentAudioChunk)
        case packet(Int)
    }

    /// Playback ran dry within an agent turn: silence from `from` to `until`.
    package struct Stall: Sendable, Hashable {
        package var from: MonotonicInstant
        package var until: MonotonicInstant
    }

    package private(set) var played: [Played] = []
    package private(set) var flushes: [MonotonicInstant] = []
    package private(set) var stalls: [Stall] = []
    /// A WebRTC call's agent packets, every one the caller decoded, in order (`keepPacket`).
    package private(set) var packets = OpusPacketLog()
    /// Whether the call's agent audio comes as packets (the first was offered to `keepPacket`),
    /// and whether one was refused: every later one is too, as a packet decodes from those
    /// before it.
    private var keepsPackets = false
    private var packetRefused = false
    /// Audio kept so far (its bytes as decoded, or its packets' bytes), and where keeping stopped
    /// (`maxCapturedBytes` reached).
    package private(set) var capturedBytes = 0
    package private(set) var cutAt: MonotonicInstant?
    /// The most audio kept (`RecordingDesk.agentAudioBytesPerCall`).
    package let maxCapturedBytes: Int
    private var lastEndsAt: MonotonicInstant?
    private var lastTurn = 0

    package init(maxCapturedBytes: Int) {
        self.maxCapturedBytes = maxCapturedBytes
    }

    /// An agent packet of a WebRTC call, about to be decoded: kept, every one in order whether
    /// it turns out to be audio or silence, while the cap allows; from the first packet the cap
    /// has no room for on, none is, whatever their size. The chunk decoded from it, if any,
    /// arrives next (`chunkArrived`) and refers to it.
    package mutating func keepPacket(_ payload: [UInt8]) {
        keepsPackets = true
        let bytes = payload.count + OpusPacketLog.bytesPerPacket
        guard !packetRefused, capturedBytes + bytes <= maxCapturedBytes else {
            packetRefused = true
            return
        }
        capturedBytes += bytes
        packets.append(payload)
    }

    /// `chunk` arrived at `at`, in agent turn `turn`; the playback's end moved from
    /// `drainsBefore` to `drainsAfter`. A chunk the caller did not queue (the tail of an
    /// interrupted turn, which a flushed client drops) leaves it where it was, and is not kept.
    /// On a call whose audio comes as packets, the chunk was decoded from the packet offered last
    /// (`keepPacket`); when that one was not kept, keeping stops here.
    package mutating func chunkArrived(
        _ chunk: AgentAudioChunk,
        at: MonotonicInstant,
        drainsBefore: MonotonicInstant?,
        drainsAfter: MonotonicInstant?,
        turn: Int
    ) {
        guard chunk.durationUs > 0, let drainsAfter, drainsAfter != drainsBefore else { return }
        let startsAt = drainsAfter.advanced(byMicroseconds: -chunk.durationUs)
        if turn == lastTurn, let lastEndsAt, startsAt > lastEndsAt { stalls.append(Stall(from: lastEndsAt, until: startsAt)) }
        (lastEndsAt, lastTurn) = (drainsAfter, turn)
        guard cutAt == nil else { return }
        if keepsPackets {
            guard !packetRefused else {
                cutAt = startsAt
                return
            }
            played.append(Played(audio: .packet(packets.count - 1), durationUs: chunk.durationUs, startsAt: startsAt, queuedAt: at))
            return
        }
        guard capturedBytes + chunk.byteCount <= maxCapturedBytes else {
            cutAt = startsAt
            return
        }
        capturedBytes += chunk.byteCount
        played.append(Played(audio: .chunk(chunk), durationUs: chunk.durationUs, startsAt: startsAt, queuedAt: at))
    }

    /// The format the kept audio plays in: the first chunk's, or the packets' decoded format.
    package var audioFormat: AudioFormat? {
        switch played.first?.audio {
        case .chunk(let chunk)?: return chunk.audioFormat
        case .packet?: return OpusPacketLog.decodedFormat
        case nil: return nil
        }
    }

    /// Every chunk kept, with its audio (decoded from base64, or its packet decoded again with
    /// the call's others), where it played; a chunk that carried only its level is left out.
    /// Called when the recording is written, after the call.
    package func playedAudio() -> [(item: Played, bytes: [UInt8], format: AudioFormat)] {
        let decodedPackets = keepsPackets ? packets.decodedPCM16() : []
        return played.compactMap { item in
            switch item.audio {
            case .packet(let packet):
                return (item, decodedPackets[packet], OpusPacketLog.decodedFormat)
            case .chunk(let chunk):
                return chunk.decodedAudio.map { (item, $0.bytes, $0.format) }
            }
        }
    }

    /// Playback was flushed at `at`: what was queued and not yet played is dropped.
    package mutating func flushed(at: MonotonicInstant) {
        flushes.append(at)
        if let lastEndsAt, lastEndsAt > at { self.lastEndsAt = at }
    }

    /// Where `item` stops playing: its end, or the first flush after it was queued that falls
    /// before its end (nil when the flush came before it began).
    package func audibleEnd(of item: Played) -> MonotonicInstant? {
        let end = item.endsAt
        guard let flush = flushes.first(where: { $0 >= item.queuedAt && $0 < end }) else { return end }
        return flush > item.startsAt ? flush : nil
    }
}
