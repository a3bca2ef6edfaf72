import WSCore

/// The JSON beside a recording (`client-3-iteration-0.json`, docs/recordings.md): the call's
/// figures and its marks on the WAV's timeline, in ms since the connect.
package struct CallMarks: Sendable, Codable, Hashable {
    package var client: Int
    package var iteration: Int
    package var wav: String
    package var sampleRateHz: Int
    package var durationMs: Double
    package var outcome: String
    package var errorClass: String?
    /// Why it was recorded: `worst`, `failed`, `threshold`, `all`.
    package var reasons: [String]
    package var slowestFirstAudioFromEndMs: Double?
    /// Where keeping the agent's audio stopped (`AgentAudioCapture.maxCapturedUs`); the right
    /// channel is silent after it.
    package var agentAudioCutMs: Double?
    package var marks: [CallMark]
    /// The clips the caller spoke, where each began on the left channel.
    package var clips: [Clip]
    package var turns: [Turn]

    /// A clip of the caller's: where it began (ms since the connect), the file it was made
    /// from, and its speech span within it (ms from its start), as every latency counts it.
    package struct Clip: Sendable, Codable, Hashable {
        package var ms: Double
        package var source: String
        package var speechStartMs: Double
        package var speechEndMs: Double

        enum CodingKeys: String, CodingKey {
            case ms, source
            case speechStartMs = "speech_start_ms"
            case speechEndMs = "speech_end_ms"
        }
    }

    /// A turn's row, in brief.
    package struct Turn: Sendable, Codable, Hashable {
        package var turn: Int
        package var label: String
        package var outcome: String
        package var firstAudioFromEndMs: Double?
        package var bargeIn: Bool

        enum CodingKeys: String, CodingKey {
            case turn, label, outcome
            case firstAudioFromEndMs = "first_audio_from_end_ms"
            case bargeIn = "barge_in"
        }
    }

    enum CodingKeys: String, CodingKey {
        case client, iteration, wav, outcome, reasons, marks, clips, turns
        case sampleRateHz = "sample_rate_hz"
        case durationMs = "duration_ms"
        case errorClass = "error_class"
        case slowestFirstAudioFromEndMs = "slowest_first_audio_from_end_ms"
        case agentAudioCutMs = "agent_audio_cut_ms"
    }

    package init(_ call: FinishedCall, reasons: [String], sampleRateHz: Int) {
        let origin = call.connectAt
        func ms(_ instant: MonotonicInstant) -> Double { Self.ms(instant.microseconds(since: origin)) }
        client = call.recording.client
        iteration = call.recording.iteration
        wav = call.baseName + ".wav"
        self.sampleRateHz = sampleRateHz
        durationMs = Self.ms(call.durationUs)
        outcome = call.session.outcome.rawValue
        errorClass = call.session.errorClass
        self.reasons = reasons
        slowestFirstAudioFromEndMs = call.slowestFirstAudioUs.map(Self.ms)
        agentAudioCutMs = call.recording.agentAudio.compactMap(\.cutAt).first.map(ms)
        var marks = call.recording.readyAt.map { CallMark(.ready, ms: ms($0)) }
        for turn in call.recording.turns { marks += Self.marks(of: turn, ms: ms) }
        for capture in call.recording.agentAudio {
            marks += capture.stalls.map { CallMark(.stall, ms: ms($0.from), untilMs: ms($0.until)) }
        }
        self.marks = marks.sorted { ($0.ms, $0.kind.rawValue) < ($1.ms, $1.kind.rawValue) }
        clips = call.recording.clips.map { clip in
            let speech = clip.frames.utterance.boundaries
            return Clip(
                ms: ms(clip.startsAt),
                source: clip.frames.utterance.sourcePath,
                speechStartMs: Self.ms(speech.speechStartUs),
                speechEndMs: Self.ms(speech.speechEndUs)
            )
        }
        turns = call.recording.turns.map {
            Turn(
                turn: $0.turn,
                label: $0.label,
                outcome: $0.outcome.rawValue,
                firstAudioFromEndMs: $0.firstAudioFromEndUs.map(Self.ms),
                bargeIn: $0.bargeIn
            )
        }
    }

    /// A turn's speech end and first audio; a barge-in's start and acknowledgement.
    private static func marks(of turn: TurnRecord, ms: (MonotonicInstant) -> Double) -> [CallMark] {
        guard let speechStartAt = turn.speechStartAt else { return [] }
        var marks: [CallMark] = []
        if turn.bargeIn {
            marks.append(CallMark(.bargeIn, ms: ms(speechStartAt), turn: turn.turn))
            if let ackUs = turn.intAckUs {
                marks.append(CallMark(.ack, ms: ms(speechStartAt.advanced(byMicroseconds: ackUs)), turn: turn.turn))
            }
        }
        guard let startOffsetUs = turn.speechStartOffsetUs, let endOffsetUs = turn.speechEndOffsetUs else { return marks }
        let speechEndAt = speechStartAt.advanced(byMicroseconds: endOffsetUs - startOffsetUs)
        marks.append(CallMark(.speechEnd, ms: ms(speechEndAt), turn: turn.turn))
        if let firstAudioUs = turn.firstAudioFromEndUs {
            marks.append(CallMark(.firstAudio, ms: ms(speechEndAt.advanced(byMicroseconds: firstAudioUs)), turn: turn.turn))
        }
        return marks
    }

    static func ms(_ us: Int64) -> Double { (Double(us) / 10).rounded() / 100 }
}
