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
        let alternative: [String: Any] = [
            "transcript": result.text,
            "confidence": result.text.isEmpty ? 0.0 : transcriptConfidence,
            "words": words(in: result.text, startS: startS, durationS: durationS),
        ]
        return DeepgramMessage.text(
            type: DeepgramMessage.Name.results,
            [
                "channel_index": [0, 1],
                "start": startS,
                "duration": durationS,
                "is_final": result.isFinal,
                "speech_final": result.speechFinal,
                "from_finalize": result.fromFinalize,
                "channel": ["alternatives": [alternative]],
                "metadata": [
                    "request_id": requestID,
                    "model_info": ["name": modelName, "version": "1", "arch": "simulated"],
                    "model_uuid": modelUUID,
                ] as [String: Any],
            ]
        )
    }

    /// The words of `text` (split at whitespace), spread evenly over the result's span:
    /// `word` is the lowercased word without surrounding punctuation, `punctuated_word` the
    /// word as written.
    static func words(in text: String, startS: Double, durationS: Double) -> [[String: Any]] {
        let tokens = text.split(whereSeparator: \.isWhitespace)
        guard !tokens.isEmpty else { return [] }
        let shareS = durationS / Double(tokens.count)
        return tokens.enumerated().map { index, token in
            let bare = token.trimmingCharacters(in: .punctuationCharacters).lowercased()
            return [
                "word": bare.isEmpty ? token.lowercased() : bare,
                "start": DeepgramMessage.seconds(startS + Double(index) * shareS),
                "end": DeepgramMessage.seconds(startS + Double(index + 1) * shareS),
                "confidence": wordConfidence,
                "punctuated_word": String(token),
            ]
        }
    }
}
