import Foundation

/// The Deepgram `Results` message in the full shape of docs/dialects.md, as the simulator
/// sends it: one channel, one alternative with word timings, and the request's metadata.
///
/// Prepared once per transcript (its words split, escaped and set in their JSON text), so that
/// a result is those pieces joined with its positions and flags: no dictionaries, no key
/// sorting, no word splitting per result. The simulator sends one at every interim and final
/// result, and in a load run the finals of all sessions fall due at the same instant
/// (BENCHMARKS.md, "The built-in simulator at the reply instant").
struct DeepgramResultsMessage: Sendable {
    /// The alternative's confidence for a non-empty transcript.
    static let transcriptConfidence = 0.98
    /// Each word's confidence.
    static let wordConfidence = 0.99
    /// The simulated model, in `metadata.model_info`.
    static let modelName = "vload-simulator"
    static let modelUUID = "00000000-0000-0000-0000-000000000000"

    /// One word of the transcript, as its JSON object reads around its start and end.
    private struct PreparedWord: Sendable {
        /// `{"word":"hello","start":`
        var head: String
        /// `,"confidence":0.99,"punctuated_word":"Hello,"}`
        var tail: String
    }

    /// The transcript the message is prepared for.
    let transcript: String
    /// `"channel":{"alternatives":[{"transcript":"…","confidence":0.98,"words":[`
    private let alternativeHead: String
    private let words: [PreparedWord]
    /// `]}]},"metadata":{"request_id":"`
    private static let metadataHead = #"]}]},"metadata":{"request_id":""#
    /// The rest of the metadata after the request id, and the end of the message.
    private static let metadataTail =
        #"","model_info":{"name":"\#(modelName)","version":"1","arch":"simulated"},"model_uuid":"\#(modelUUID)"}}"#

    /// Prepares the message for `transcript`: its words are split at whitespace; `word` is the
    /// lowercased word without surrounding punctuation, `punctuated_word` the word as written.
    init(transcript: String) {
        self.transcript = transcript
        let confidence = transcript.isEmpty ? 0.0 : Self.transcriptConfidence
        alternativeHead =
            #","channel":{"alternatives":[{"transcript":"# + JSONText.quoted(transcript)
            + #","confidence":"# + JSONText.number(confidence) + #","words":["#
        words = transcript.split(whereSeparator: \.isWhitespace).map { token in
            let bare = token.trimmingCharacters(in: .punctuationCharacters).lowercased()
            return PreparedWord(
                head: #"{"word":"# + JSONText.quoted(bare.isEmpty ? token.lowercased() : bare) + #","start":"#,
                tail: #","confidence":"# + JSONText.number(Self.wordConfidence) + #","punctuated_word":"#
                    + JSONText.quoted(String(token)) + "}"
            )
        }
    }

    /// The JSON text of the `Results` for `result` (whose text is `transcript`), in request
    /// `requestID`. Positions are seconds rounded to the millisecond (non-finite ones become
    /// 0); the words are spread evenly over the result's span.
    func text(_ result: SpeechResult, requestID: String) -> String {
        let startS = DeepgramMessage.seconds(result.startS)
        let durationS = DeepgramMessage.seconds(result.durationS)
        var output = #"{"type":"\#(DeepgramMessage.Name.results)","channel_index":[0,1],"start":"#
        output.reserveCapacity(512 + 96 * words.count)
        output += JSONText.number(startS)
        output += #","duration":"#
        output += JSONText.number(durationS)
        output += #","is_final":"#
        output += result.isFinal ? "true" : "false"
        output += #","speech_final":"#
        output += result.speechFinal ? "true" : "false"
        output += #","from_finalize":"#
        output += result.fromFinalize ? "true" : "false"
        output += alternativeHead
        let shareS = durationS / Double(max(1, words.count))
        for (index, word) in words.enumerated() {
            if index > 0 { output += "," }
            output += word.head
            output += JSONText.number(DeepgramMessage.seconds(startS + Double(index) * shareS))
            output += #","end":"#
            output += JSONText.number(DeepgramMessage.seconds(startS + Double(index + 1) * shareS))
            output += word.tail
        }
        output += Self.metadataHead
        JSONText.appendEscaped(requestID, to: &output)
        output += Self.metadataTail
        return output
    }
}
