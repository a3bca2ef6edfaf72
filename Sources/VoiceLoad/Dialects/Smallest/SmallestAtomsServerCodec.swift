/// The server side of one Smallest.ai Atoms connection: decodes client messages through
/// `SmallestAtomsServerDialect.decode` and frames agent output as Smallest server messages,
/// keeping the session id from the connection's opening for `session.created`.
struct SmallestAtomsServerCodec: ServerCodec {
    let sampleRateHz: Int
    /// The simulator's session id, learnt from `.connectionOpened`.
    private(set) var sessionID = "session"

    init(sampleRateHz: Int) {
        self.sampleRateHz = sampleRateHz
    }

    func receive(_ frame: WireFrame) throws(DialectDecodingError) -> [ClientIntent] {
        try SmallestAtomsServerDialect.decode(frame)
    }

    /// `.ready` → `session.created`, `.agentTurnStarted` → `agent_start_talking`, audio →
    /// `output_audio.delta`, `.turnComplete` → `agent_stop_talking`, `.interrupted` →
    /// `interruption`, transcripts → `transcript` (final) or `transcript.delta`, `.error` →
    /// `error` (its code, else `internal_error`), `.ended` → `session.closed` (`client_requested`: the
    /// simulator ends a session only when the client asks). Everything else has no message.
    mutating func frames(for output: AgentOutput) -> [WireFrame] {
        typealias Name = SmallestAtomsMessage.Name
        let object: [String: Any]
        switch output {
        case .connectionOpened(let sessionID):
            self.sessionID = sessionID
            return []
        case .ready:
            object = [
                "type": Name.sessionCreated, "session_id": sessionID, "call_id": "CALL-\(sessionID)",
                "sample_rate": sampleRateHz, "channels": 1,
            ]
        case .agentTurnStarted:
            object = ["type": Name.agentStartTalking]
        case .audio(let bytes):
            return [SmallestAtomsServerDialect.audioFrame(bytes)]
        case .turnComplete:
            object = ["type": Name.agentStopTalking]
        case .interrupted:
            object = ["type": Name.interruption]
        case .transcript(let line):
            object = [
                "type": line.isFinal ? Name.transcript : Name.transcriptDelta,
                "role": SmallestAtomsMessage.normalizedRole(line.role), "text": line.text,
            ]
        case .error(let code, let message):
            object = ["type": Name.error, "code": code ?? "internal_error", "message": message]
        case .ended:
            object = ["type": Name.sessionClosed, "reason": "client_requested"]
        case .sessionStarted, .userSpeechStarted, .userSpeechStopped, .agentAudioDone, .responseCancelled,
            .toolCall, .speechResult, .utteranceEnd:
            return []
        }
        return [.text(JSONFrame.text(object))]
    }

    func audioFrame(_ audio: PreparedAudio) -> EncodedFrame {
        if let frame = audio.sharedFrame { return frame }
        return EncodedFrame(
            .text(
                SmallestAtomsMessage.audioText(
                    type: SmallestAtomsMessage.Name.audioDelta,
                    base64: audio.base64 ?? ""
                )
            )
        )
    }
}
