import Foundation

/// The Deepgram `Results` message in the full shape of docs/dialects.md, as the simulator
/// sends it: one channel, one alternative with word timings, and the request's metadata.
enum DeepgramResultsMessage {
    /// The alternative's confidence for a non-empty transcript.
    static let transcriptConfidence = 0.98
    /// Each word's confidence.
    static let wordConfidence = 0.99
    /// The simulated model, in `metadata.model_info`.
    static let modelName = "vload-simulator"
    static let modelUUID = "00000000-0000-0000-0000-000000000000"

    /// The JSON text of the `Results` for `result`, in request `requestID`. Positions are
    /// seconds rounded to the millisecond (non-finite ones become 0).
    static func text(_ result: SpeechResult, requestID: String) -> String {
        let startS = DeepgramMessage.seconds(result.startS)
        let durationS = DeepgramMessage.seconds(result.durationS)
        let alternative: [String: JSONValue] = [
            "transcript": .string(result.text),
            "confidence": .number(result.text.isEmpty ? 0.0 : transcriptConfidence),
            "words": .array(words(in: result.text, startS: startS, durationS: durationS)),
        ]
        return DeepgramMessage.text(
            type: DeepgramMessage.Name.results,
            [
                "channel_index": [0, 1],
                "start": .number(startS),
                "duration": .number(durationS),
                "is_final": .bool(result.isFinal),
                "speech_final": .bool(result.speechFinal),
                "from_finalize": .bool(result.fromFinalize),
                "channel": ["alternatives": [.object(alternative)]],
                "metadata": [
                    "request_id": .string(requestID),
                    "model_info": ["name": .string(modelName), "version": "1", "arch": "simulated"],
                    "model_uuid": .string(modelUUID),
                ],
            ]
        )
    }

    /// The words of `text` (split at whitespace), spread evenly over the result's span:
    /// `word` is the lowercased word without surrounding punctuation, `punctuated_word` the
    /// word as written.
    static func words(in text: String, startS: Double, durationS: Double) -> [JSONValue] {
        let tokens = text.split(whereSeparator: \.isWhitespace)
        guard !tokens.isEmpty else { return [] }
        let shareS = durationS / Double(tokens.count)
        return tokens.enumerated().map { index, token in
            let bare = token.trimmingCharacters(in: .punctuationCharacters).lowercased()
            return [
                "word": .string(bare.isEmpty ? token.lowercased() : bare),
                "start": .number(DeepgramMessage.seconds(startS + Double(index) * shareS)),
                "end": .number(DeepgramMessage.seconds(startS + Double(index + 1) * shareS)),
                "confidence": .number(wordConfidence),
                "punctuated_word": .string(String(token)),
            ]
        }
    }
}
