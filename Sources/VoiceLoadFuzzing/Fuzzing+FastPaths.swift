import Foundation
import VoiceLoad

/// The fast paths of the receive side, against Foundation: `FlatJSONObject` reads every audio
/// delta and `Base64Decoder` decodes its audio, each in place of a Foundation call that gives
/// the same answer more slowly. Their promise is that sameness, so each target checks it.
extension Fuzzing {
    /// The flat-JSON target: what `FlatJSONObject` accepts, `JSONSerialization` accepts too and
    /// reads as an equal object. (It may refuse what Foundation accepts: the caller then asks
    /// Foundation.) Its input is a text frame's `String`, as in `JSONFrame`, so valid UTF-8.
    static func flatJSONReading(_ payload: [UInt8]) -> FuzzOutcome {
        var string = text(payload)
        guard let flat = string.withUTF8(FlatJSONObject.parse) else { return FuzzOutcome(accepted: false) }
        var outcome = FuzzOutcome()
        let text = String(string.prefix(120)).debugDescription
        let data = Data(string.utf8)
        guard let full = (try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])) as? [String: Any] else {
            outcome.check(false, "FlatJSONObject read \(text), which JSONSerialization refuses")
            return outcome
        }
        outcome.check(NSDictionary(dictionary: flat).isEqual(to: full), "FlatJSONObject and JSONSerialization read \(text) differently")
        return outcome
    }

    /// The base64 target: what `Base64Decoder` accepts, `Data(base64Encoded:)` accepts too and
    /// decodes to the same bytes; and the bytes of the payload, encoded by Foundation, decode
    /// back to themselves.
    static func base64Decoding(_ payload: [UInt8]) -> FuzzOutcome {
        var outcome = FuzzOutcome(accepted: false)
        let string = text(payload)
        if let decoded = Base64Decoder.decode(string) {
            outcome.accepted = true
            let foundation = Data(base64Encoded: string).map { [UInt8]($0) }
            outcome.check(foundation == decoded, "Base64Decoder decoded \(string.prefix(80).debugDescription) unlike Foundation")
        }
        let encoded = Data(payload).base64EncodedString()
        outcome.check(
            Base64Decoder.decode(encoded) == payload,
            "Base64Decoder does not decode Foundation's encoding of \(payload.count) bytes"
        )
        return outcome
    }
}
