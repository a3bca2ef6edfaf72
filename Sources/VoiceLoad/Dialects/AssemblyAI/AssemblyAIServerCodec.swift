import WSCore

/// The server side of one AssemblyAI Universal-Streaming v3 connection (docs/dialects.md).
///
/// In: binary audio, `ForceEndpoint` (→ `.commit`), `KeepAlive`, `UpdateConfiguration` (its
/// `format_turns` taken, no answer: v3 has none) and `Terminate` (→ `.stop`). Out: `Begin` when ready,
/// `SpeechStarted` when the user starts speaking, a partial `Turn` for each interim result,
/// the ended `Turn` for the final one (and its formatted copy when the query sets
/// `format_turns=true`), `Error`, and `Termination` at the end.
struct AssemblyAIServerCodec: ServerCodec {
    typealias Name = AssemblyAIMessage.Name

    /// `end_of_turn_confidence` of partial and ended turns, and each word's confidence: the
    /// simulator's figures, on either side of the service's default threshold (0.4).
    static let endedConfidence = 0.9
    static let ongoingConfidence = 0.1
    static let wordConfidence = 0.99
    /// `Error.error_code` when the output's code is not a number: 3005, "Server error" in the
    /// SDK's table of codes.
    static let serverErrorCode: Int64 = 3005

    /// The query (or the latest `UpdateConfiguration`) sets `format_turns` true: an ended turn
    /// is followed by its formatted copy.
    private(set) var formatsTurns: Bool
    let inputFormat: AudioFormat
    private(set) var sessionID = "vload-simulator"
    /// The `turn_order` of the turn under way.
    private(set) var turnOrder: Int64 = 0
    private(set) var receivedAudioBytes = 0

    init(target: String, inputFormat: AudioFormat) {
        self.inputFormat = inputFormat
        guard let question = target.firstIndex(of: "?") else {
            formatsTurns = false
            return
        }
        formatsTurns = URLQuery.value(of: "format_turns", in: String(target[target.index(after: question)...]))?.lowercased() == "true"
    }

    mutating func receive(_ frame: WireFrame) throws(DialectDecodingError) -> [ClientIntent] {
        if case .binary(let bytes) = frame {
            receivedAudioBytes += bytes.count
            return bytes.isEmpty ? [] : [.audio(bytes)]
        }
        let message = try DeepgramMessage.received(frame)
        switch message.type {
        case Name.forceEndpoint: return [.commit]
        case Name.keepAlive: return [.keepAlive]
        case Name.terminate: return [.stop]
        case Name.updateConfiguration:
            if let formats = message.bool("format_turns") { formatsTurns = formats }
            return [.configure(parameters: message.members.filter { $0.key != "type" })]
        default: throw .unknownType(message.type)
        }
    }

    mutating func frames(for output: AgentOutput) -> [WireFrame] {
        switch output {
        case .connectionOpened(let id):
            sessionID = id
            return []
        case .ready:
            // The codec reads no clock: the expiry is a fixed instant.
            return [Self.message(Name.begin, ["id": .string(sessionID), "expires_at": .string("1970-01-01T01:00:00Z")])]
        case .userSpeechStarted(let audioMs):
            return [Self.message(Name.speechStarted, ["timestamp": .integer(Int64(audioMs))])]
        case .speechResult(let result):
            guard result.isFinal else { return [turn(result, ended: false, formatted: false)] }
            var frames = [turn(result, ended: true, formatted: false)]
            if formatsTurns { frames.append(turn(result, ended: true, formatted: true)) }
            turnOrder += 1
            return frames
        case .error(let code, let text):
            let number = code.flatMap { Int64($0) } ?? Self.serverErrorCode
            return [Self.message(Name.error, ["error_code": .integer(number), "error": .string(text)])]
        case .ended:
            let seconds = inputFormat.durationUs(byteCount: receivedAudioBytes) / 1_000_000
            return [
                Self.message(
                    Name.termination,
                    ["audio_duration_seconds": .integer(seconds), "session_duration_seconds": .integer(seconds)]
                )
            ]
        case .sessionStarted, .userTurnResumed, .userSpeechStopped, .utteranceEnd, .agentTurnStarted, .audio, .agentAudioDone, .turnComplete,
            .interrupted, .responseCancelled, .toolCall, .transcript:
            return []
        }
    }

    func audioFrame(_ audio: PreparedAudio) -> EncodedFrame {
        audio.sharedFrame ?? EncodedFrame(.binary([]))
    }

    /// A `Turn` for `result`, its words spread evenly over the result's span, in milliseconds.
    private func turn(_ result: SpeechResult, ended: Bool, formatted: Bool) -> WireFrame {
        let words = result.text.split(whereSeparator: \.isWhitespace)
        let startMs = (result.startS * 1_000).rounded()
        let shareMs = (result.durationS * 1_000).rounded() / Double(max(1, words.count))
        let wordObjects: [JSONValue] = words.enumerated().map { index, word in
            .object([
                "start": .integer(Int64(startMs + Double(index) * shareMs)), "end": .integer(Int64(startMs + Double(index + 1) * shareMs)),
                "confidence": .number(Self.wordConfidence), "text": .string(String(word)), "word_is_final": .bool(ended),
            ])
        }
        return Self.message(
            Name.turn,
            [
                "turn_order": .integer(turnOrder), "turn_is_formatted": .bool(formatted), "end_of_turn": .bool(ended),
                "transcript": .string(result.text), "words": .array(wordObjects),
                "end_of_turn_confidence": .number(ended ? Self.endedConfidence : Self.ongoingConfidence),
            ]
        )
    }

    private static func message(_ type: String, _ members: [String: JSONValue]) -> WireFrame {
        .text(DeepgramMessage.text(type: type, members))
    }
}
