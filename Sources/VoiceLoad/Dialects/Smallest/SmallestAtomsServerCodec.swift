import WSCore

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
        let object: [String: JSONValue]
        switch output {
        case .connectionOpened(let sessionID):
            self.sessionID = sessionID
            return []
        case .ready:
            object = [
                "type": JSONValue(Name.sessionCreated), "session_id": JSONValue(sessionID), "call_id": .string("CALL-\(sessionID)"),
                "sample_rate": JSONValue(sampleRateHz), "channels": 1,
            ]
        case .agentTurnStarted:
            object = ["type": JSONValue(Name.agentStartTalking)]
        case .audio(let bytes):
            return [SmallestAtomsServerDialect.audioFrame(bytes)]
        case .turnComplete:
            object = ["type": JSONValue(Name.agentStopTalking)]
        case .interrupted:
            object = ["type": JSONValue(Name.interruption)]
        case .transcript(let line):
            object = [
                "type": JSONValue(line.isFinal ? Name.transcript : Name.transcriptDelta),
                "role": JSONValue(SmallestAtomsMessage.normalizedRole(line.role)), "text": JSONValue(line.text),
            ]
        case .error(let code, let message):
            object = ["type": JSONValue(Name.error), "code": JSONValue(code ?? "internal_error"), "message": JSONValue(message)]
        case .ended:
            object = ["type": JSONValue(Name.sessionClosed), "reason": "client_requested"]
        case .sessionStarted, .userTurnResumed, .userSpeechStarted, .userSpeechStopped, .agentAudioDone, .responseCancelled,
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
