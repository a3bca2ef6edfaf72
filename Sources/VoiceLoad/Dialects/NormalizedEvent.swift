/// The dialect-independent events of docs/dialects.md that metrics are computed from.
///
/// Transport-level events (`ws.open`, `ws.closed`, `ws.upgrade_failed`) come from the
/// transport, not from a dialect, and are not listed here.
package enum NormalizedEvent: Sendable, Hashable {
    /// `session.started(ids)`: the server acknowledged the session.
    case sessionStarted(ids: [String: String])
    /// `session.ready`: the server now accepts user audio.
    case sessionReady
    /// `agent.audio`: a chunk of agent speech.
    case agentAudio(AgentAudioChunk)
    /// `agent.speech_started`: the agent began a spoken turn (explicit on the wire).
    case agentSpeechStarted(turnKey: String?)
    /// `agent.speech_ended`: the server finished sending audio for the turn.
    case agentSpeechEnded(turnKey: String?)
    /// `user.speech_started`: server VAD heard the user.
    case userSpeechStarted
    /// `user.speech_stopped`: server VAD detected the end of user speech.
    case userSpeechStopped
    /// `agent.interrupted`: the server acknowledged barge-in or asked to flush playback.
    case agentInterrupted
    /// `turn.complete`: the agent's turn or response is over.
    case turnComplete(turnKey: String?)
    /// `transcript(role, text, isFinal, isCumulative)`.
    case transcript(role: String, text: String, isFinal: Bool)
    /// `tool.call(name, args, status, id?)`: `id` is the call id a client-side tool result
    /// must quote (OpenAI `call_id`, Deepgram function `id`); `arguments` is the JSON text.
    /// `status` is `requested` for a call the client must answer, `called` for one the server
    /// runs itself (Deepgram `client_side: false`), `cancelled` for a call the server withdrew
    /// (Deepgram `FunctionCallCancelled`): no result may be sent for it.
    case toolCall(name: String, status: String, id: String? = nil, arguments: String? = nil)
    /// `error(code, message, fatal?)`: an in-band error from the server.
    case error(code: String?, message: String, fatal: Bool)
    /// A warning from the server (Deepgram `Warning`): counted by code, never fatal, never an error.
    case warning(code: String?, message: String)
    /// `session.ended(reason)`.
    case sessionEnded(reason: String?)
    /// The server cancelled the response of this turn (OpenAI `response.done` status
    /// `cancelled`): recorded as `int_cancel_ms`, apart from the acknowledgement.
    case responseCancelled(turnKey: String?)
    /// The server had no response in progress to cancel (OpenAI error
    /// `response_cancel_not_active`): an interrupt command that came after the reply was complete.
    case cancelNotActive
    /// A speech-to-text result with its audio position (Deepgram `Results`).
    case speechResult(SpeechResult)
    /// Deepgram `UtteranceEnd`: the end of an utterance by word timing.
    case utteranceEnd
    /// The server's own reading of the user's turn (Flux `EagerEndOfTurn`, `TurnResumed`,
    /// `EndOfTurn`).
    case userTurn(UserTurnSignal)
    /// A latency the server reports about itself (Deepgram `AgentStartedSpeaking`,
    /// `LatencyReport`), named as in the report (`server_total_latency_ms`), in µs as every
    /// metric; kept apart from client-measured metrics.
    case serverLatency(name: String, valueUs: Int64)
    /// A playback label from the server (Twilio `mark`).
    case mark(name: String)
    /// A well-formed frame of a type this dialect does not know: counted, never fatal.
    case unknown(type: String)
    /// A frame that could not be parsed: a protocol violation, never a crash.
    case malformed(reason: String)
}

/// A chunk of agent audio as the client needs it: how long it plays and how loud it is.
package struct AgentAudioChunk: Sendable, Hashable {
    package var byteCount: Int
    package var durationUs: Int64
    /// The turn this chunk belongs to, where the wire says so (OpenAI `response_id`).
    package var turnKey: String?
    private var loudness: Loudness

    /// The level as given, or the audio to measure it from when it is read (decoded, or as the
    /// wire's base64).
    private enum Loudness: Sendable {
        case level(Float)
        case audio([UInt8], AudioFormat)
        case base64(String, AudioFormat)
    }

    package init(byteCount: Int, durationUs: Int64, rmsLevel: Float, turnKey: String? = nil) {
        self.byteCount = byteCount
        self.durationUs = durationUs
        self.loudness = .level(rmsLevel)
        self.turnKey = turnKey
    }

    /// Builds the chunk description from decoded audio bytes in `format`.
    package init(audio bytes: [UInt8], format: AudioFormat, turnKey: String? = nil) {
        self.byteCount = bytes.count
        self.durationUs = format.durationUs(byteCount: bytes.count)
        self.loudness = .audio(bytes, format)
        self.turnKey = turnKey
    }

    /// A chunk whose audio in `format` is the padded standard base64 `text`; nil when it is not
    /// base64. The audio is decoded only if its level is read.
    package init?(base64 text: String, format: AudioFormat, turnKey: String? = nil) {
        guard let byteCount = Base64Decoder.decodedByteCount(text) else { return nil }
        self.byteCount = byteCount
        self.durationUs = format.durationUs(byteCount: byteCount)
        self.loudness = .base64(text, format)
        self.turnKey = turnKey
    }

    /// RMS level of the chunk, 0 (digital silence) to 1 (full scale). Measured each time it is
    /// read: the caller reads it only until its turn's first voiced chunk, so most chunks of a
    /// reply are never measured (BENCHMARKS.md, "Instructions per frame").
    package var rmsLevel: Float {
        switch loudness {
        case .level(let level): return level
        case .audio(let bytes, let format): return AudioLevel.rms(of: bytes, format: format)
        case .base64(let text, let format): return Base64Decoder.decode(text).map { AudioLevel.rms(of: $0, format: format) } ?? 0
        }
    }

    /// The chunk's audio, decoded from base64 when it came so; nil for a chunk that carries
    /// only its level. Read when a recording is written, after the call (docs/recordings.md).
    package var decodedAudio: (bytes: [UInt8], format: AudioFormat)? {
        switch loudness {
        case .level: return nil
        case .audio(let bytes, let format): return (bytes, format)
        case .base64(let text, let format): return Base64Decoder.decode(text).map { ($0, format) }
        }
    }

    /// The format of the chunk's audio; nil for a chunk that carries only its level.
    package var audioFormat: AudioFormat? {
        switch loudness {
        case .level: return nil
        case .audio(_, let format), .base64(_, let format): return format
        }
    }

    /// Chunks are equal when they play as long, as loud, in the same turn.
    package static func == (lhs: AgentAudioChunk, rhs: AgentAudioChunk) -> Bool {
        lhs.byteCount == rhs.byteCount && lhs.durationUs == rhs.durationUs && lhs.turnKey == rhs.turnKey
            && lhs.rmsLevel == rhs.rmsLevel
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(byteCount)
        hasher.combine(durationUs)
        hasher.combine(turnKey)
        hasher.combine(rmsLevel)
    }
}
