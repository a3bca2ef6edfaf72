import WSCore

/// The server side of one Deepgram speech-to-text connection (docs/dialects.md).
///
/// In: binary audio, `KeepAlive`, `Finalize` (→ `.commit`) and `CloseStream` (→ `.stop`).
/// Out: `Results`, `SpeechStarted`, `UtteranceEnd` and, at the end, `Metadata`; every other
/// agent output has no Deepgram message. Remembers the request id (the session id the
/// simulator opens with) and how much audio arrived, for `Metadata.duration`.
struct DeepgramSTTServerCodec: ServerCodec {
    /// The user audio format, to turn received bytes into seconds.
    let inputFormat: AudioFormat
    /// `interim_results` is not `false`: results with `is_final:false` are sent.
    let sendsInterimResults: Bool
    /// `vad_events` is not `false`: `SpeechStarted` is sent.
    let sendsSpeechStarted: Bool
    /// `endpointing` is not `false`: `speech_final` is passed on.
    let endpoints: Bool
    /// `request_id` in `Results` and `Metadata`.
    private(set) var requestID = "vload-simulator"
    /// User audio received so far, in bytes.
    private(set) var receivedAudioBytes = 0
    /// The `Results` prepared for the simulator's transcripts, shared with its other sessions.
    private let resultsCache: DeepgramResultsCache
    /// The one of them this session used last.
    private var results: DeepgramResultsMessage?

    /// A codec for the upgrade request target `target` (`/v1/listen?encoding=linear16&…`).
    init(target: String, inputFormat: AudioFormat, resultsCache: DeepgramResultsCache) {
        self.inputFormat = inputFormat
        self.resultsCache = resultsCache
        sendsInterimResults = DeepgramListenQuery.isEnabled("interim_results", inTarget: target)
        sendsSpeechStarted = DeepgramListenQuery.isEnabled("vad_events", inTarget: target)
        endpoints = DeepgramListenQuery.isEnabled("endpointing", inTarget: target)
    }

    /// Binary frames are audio (an empty one carries no intent); text frames are JSON control
    /// messages. Throws `.unknownType` for another message type and `.malformed` for text
    /// that is not a Deepgram message.
    mutating func receive(_ frame: WireFrame) throws(DialectDecodingError) -> [ClientIntent] {
        if case .binary(let bytes) = frame {
            receivedAudioBytes += bytes.count
            return bytes.isEmpty ? [] : [.audio(bytes)]
        }
        let message = try DeepgramMessage.received(frame)
        typealias Name = DeepgramMessage.Name
        switch message.type {
        case Name.keepAlive: return [.keepAlive]
        case Name.finalize: return [.commit]
        case Name.closeStream: return [.stop]
        default: throw .unknownType(message.type)
        }
    }

    /// `.speechResult` → `Results` (interim ones only when enabled), `.utteranceEnd` →
    /// `UtteranceEnd`, `.userSpeechStarted` → `SpeechStarted` (when enabled) with the audio
    /// position in seconds, `.ended` → `Metadata`; nothing for the rest.
    mutating func frames(for output: AgentOutput) -> [WireFrame] {
        typealias Name = DeepgramMessage.Name
        switch output {
        case .connectionOpened(let sessionID):
            requestID = sessionID
            return []
        case .speechResult(var result):
            guard result.isFinal || sendsInterimResults else { return [] }
            if !endpoints { result.speechFinal = false }
            return [.text(preparedResults(for: result.text).text(result, requestID: requestID))]
        case .utteranceEnd(let lastWordEndS):
            return [
                .text(
                    DeepgramMessage.text(
                        type: Name.utteranceEnd,
                        [
                            "channel": [0, 1], "last_word_end": JSONValue(DeepgramMessage.seconds(lastWordEndS)),
                        ]
                    )
                )
            ]
        case .userSpeechStarted(let audioMs):
            guard sendsSpeechStarted else { return [] }
            return [
                .text(
                    DeepgramMessage.text(
                        type: Name.speechStarted,
                        [
                            "channel": [0, 1], "timestamp": JSONValue(DeepgramMessage.seconds(Double(audioMs) / 1_000)),
                        ]
                    )
                )
            ]
        case .ended:
            return [.text(metadataText())]
        case .sessionStarted, .userTurnResumed, .ready, .userSpeechStopped, .agentTurnStarted, .audio, .agentAudioDone,
            .turnComplete, .interrupted, .responseCancelled, .toolCall, .transcript, .error:
            return []
        }
    }

    /// The `Results` prepared for `transcript`: the session's last, or the simulator's.
    private mutating func preparedResults(for transcript: String) -> DeepgramResultsMessage {
        if let results, results.transcript == transcript { return results }
        let prepared = resultsCache.message(for: transcript)
        results = prepared
        return prepared
    }

    func audioFrame(_ audio: PreparedAudio) -> EncodedFrame {
        audio.sharedFrame ?? EncodedFrame(.binary([]))
    }

    /// `Metadata` with the audio duration received. The codec reads no clock, so `created`
    /// is the epoch, and it hashes nothing, so `sha256` is zeros. Written as text, like
    /// `Results`: every session sends it as it hangs up, while other sessions' results fall
    /// due (BENCHMARKS.md, "The built-in simulator at the reply instant").
    private func metadataText() -> String {
        let durationS = Double(inputFormat.durationUs(byteCount: receivedAudioBytes)) / 1_000_000
        return #"{"type":"\#(DeepgramMessage.Name.metadata)","transaction_key":"deprecated","request_id":"#
            + JSONText.quoted(requestID) + Self.metadataMiddle + JSONText.number(DeepgramMessage.seconds(durationS))
            + #","channels":1}"#
    }

    /// `Metadata` from after the request id to the duration.
    private static let metadataMiddle =
        #","sha256":"\#(String(repeating: "0", count: 64))","created":"1970-01-01T00:00:00.000Z","duration":"#
}
