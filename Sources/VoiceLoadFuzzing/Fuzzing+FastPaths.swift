import Foundation
import VoiceLoad

/// The fast paths of the receive side, against Foundation: `JSONValue.parse` reads every frame
/// and `Base64Decoder` decodes its audio, each in place of a Foundation call that gives the
/// same answer more slowly. Their promise is that sameness, so each target checks it.
extension Fuzzing {
    /// The JSON target: `JSONValue.parse` accepts what `JSONSerialization` accepts (JSON nested
    /// deeper than either reads aside) and reads an equal value; `JSONText` writes that value
    /// byte for byte as `JSONSerialization` does; and the text reads back to the same value.
    /// Foundation also reads what is not JSON in UTF-8 (a byte-order mark, UTF-16 text, numbers
    /// beyond a double) and drops a byte-order mark opening a string: those inputs are skipped.
    static func jsonReading(_ payload: [UInt8]) -> FuzzOutcome {
        let text = String(String(decoding: payload.prefix(120), as: UTF8.self)).debugDescription
        let ours = try? JSONValue.parse(payload)
        var outcome = FuzzOutcome(accepted: ours != nil)
        if payload.contains(0) || Self.contains(payload, [0xEF, 0xBB, 0xBF]) { return outcome }
        let foundation = FoundationJSON.value(parsing: payload)
        guard let ours else {
            if let foundation, !Self.hasNonFiniteNumber(foundation) {
                outcome.check(Self.depth(of: foundation) > 400, "JSONValue.parse refuses \(text), which JSONSerialization reads")
            }
            return outcome
        }
        guard let foundation else {
            outcome.check(false, "JSONValue.parse reads \(text), which JSONSerialization refuses")
            return outcome
        }
        outcome.check(ours == foundation, "JSONValue.parse and JSONSerialization read \(text) differently")
        let written = JSONText.text(ours)
        outcome.check(written == FoundationJSON.text(ours), "JSONText and JSONSerialization write \(text) differently")
        outcome.check((try? JSONValue.parse(Array(written.utf8))) == ours, "JSONText's text of \(text) does not read back")
        return outcome
    }

    private static func contains(_ bytes: [UInt8], _ pattern: [UInt8]) -> Bool {
        guard bytes.count >= pattern.count else { return false }
        return (0...(bytes.count - pattern.count)).contains { bytes[$0..<($0 + pattern.count)].elementsEqual(pattern) }
    }

    private static func depth(of value: JSONValue) -> Int {
        switch value {
        case .array(let values): return 1 + (values.map(depth(of:)).max() ?? 0)
        case .object(let members): return 1 + (members.values.map(depth(of:)).max() ?? 0)
        default: return 0
        }
    }

    private static func hasNonFiniteNumber(_ value: JSONValue) -> Bool {
        switch value {
        case .number(let number): return !number.isFinite
        case .array(let values): return values.contains(where: hasNonFiniteNumber)
        case .object(let members): return members.values.contains(where: hasNonFiniteNumber)
        default: return false
        }
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
