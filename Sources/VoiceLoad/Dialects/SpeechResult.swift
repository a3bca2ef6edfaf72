/// A streaming speech-to-text result and where in the audio stream it lies (seconds from
/// the start of the stream).
package struct SpeechResult: Sendable, Hashable {
    package var text: String
    package var isFinal: Bool
    package var speechFinal: Bool
    package var startS: Double
    package var durationS: Double
    package var fromFinalize: Bool

    package init(text: String, isFinal: Bool, speechFinal: Bool, startS: Double, durationS: Double, fromFinalize: Bool = false) {
        self.text = text
        self.isFinal = isFinal
        self.speechFinal = speechFinal
        self.startS = startS
        self.durationS = durationS
        self.fromFinalize = fromFinalize
    }
}
