/// What the simulated agent does, independent of the wire protocol. The server codec of a
/// dialect turns each output into zero or more frames.
package enum AgentOutput: Sendable, Hashable {
    /// The socket is open; dialects that greet first say so here (Deepgram `Welcome`,
    /// OpenAI and Smallest `session.created`).
    case connectionOpened(sessionID: String)
    case sessionStarted(sessionID: String, conversationID: String)
    case ready
    /// Server VAD events, with the position in the user's audio stream.
    case userSpeechStarted(audioMs: Int)
    case userSpeechStopped(audioMs: Int)
    /// The user spoke again before the end of their turn was final, after an eager end of turn
    /// (`ServerCodec.withdrawsEndOfTurnOnResume`): the turn goes on (Flux `TurnResumed`).
    case userTurnResumed(audioMs: Int)
    /// The agent begins a spoken turn (OpenAI `response.created`, Smallest
    /// `agent_start_talking`, Deepgram `AgentStartedSpeaking`).
    case agentTurnStarted(turnKey: String, latencyMs: Int)
    /// One chunk of agent speech, encoded in the dialect's output format.
    case audio([UInt8])
    /// The last audio of the turn has been sent (OpenAI `response.output_audio.done`,
    /// Deepgram `AgentAudioDone`).
    case agentAudioDone(turnKey: String)
    /// The agent's turn is over (ADK `turn_complete`, OpenAI `response.done`).
    case turnComplete(turnKey: String)
    /// The agent stopped because the user barged in.
    case interrupted
    /// The interrupted turn's response is cancelled (OpenAI `response.done` status cancelled).
    case responseCancelled(turnKey: String)
    /// The agent calls a tool. `id` names the call where the client must answer it;
    /// `arguments` is JSON text.
    case toolCall(name: String, status: String, id: String? = nil, arguments: String? = nil)
    case transcript(TranscriptLine)
    /// A speech-to-text result with its position in the audio stream (Deepgram `Results`).
    case speechResult(SpeechResult)
    /// Deepgram `UtteranceEnd`.
    case utteranceEnd(lastWordEndS: Double)
    /// An in-band error; `code` goes where the dialect has a field for it (OpenAI `error.code`,
    /// Smallest `code`, Deepgram Agent `code`, ADK `errorCode`), else a dialect default.
    case error(code: String?, message: String)
    case ended(transcript: [TranscriptLine])
}

/// One line of a conversation transcript.
package struct TranscriptLine: Sendable, Hashable, Codable {
    package var role: String
    package var text: String
    package var isFinal: Bool

    package init(role: String, text: String, isFinal: Bool = true) {
        self.role = role
        self.text = text
        self.isFinal = isFinal
    }
}
