import Foundation
import Testing

@testable import VoiceLoad

@Suite("JSONText writing")
struct JSONTextTests {
    /// What `JSONSerialization` writes for `object`, with the options the dialects used.
    private static func foundation(_ object: Any) throws -> String {
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes, .fragmentsAllowed])
        return String(decoding: data, as: UTF8.self)
    }

    @Test func escapesStringsAsFoundationDoes() throws {
        let text = "\u{0}\u{1}\u{1F}\u{7F}\u{2028}é/\"\\\n\r\t\u{8}\u{C}😀 plain"
        #expect(JSONText.text(.string(text)) == (try Self.foundation(text)))
        #expect(JSONText.text(.string("\u{1F}")) == #""\u001f""#)
        #expect(JSONText.quoted("a/b\"c") == #""a/b\"c""#)
    }

    @Test(arguments: [
        0.0, -0.0, 1.0, -1.0, 0.5, 0.98, 1e-7, 3e-5, 0.0025, 12345678.9, 123456789012.5, 1e15 - 1, 1e15, 2e15,
        9_007_199_254_740_992, 1e16, 1e20, 1e21, 0.1 + 0.2, 1.7976931348623157e308, .leastNonzeroMagnitude, -2.5e-10,
    ])
    func writesNumbersAsFoundationDoes(number: Double) throws {
        // Today's writers gave Foundation integral doubles below 10^15 as integers.
        let object: Any = number.rounded() == number && abs(number) < 1e15 ? Int(number) as Any : number as Any
        #expect(JSONText.text(.number(number)) == (try Self.foundation(object)))
    }

    @Test func writesIntegersExactly() {
        #expect(JSONText.text(.integer(.max)) == "9223372036854775807")
        #expect(JSONText.text(.integer(.min)) == "-9223372036854775808")
        #expect(JSONText.text(.integer(9_007_199_254_740_993)) == "9007199254740993")
    }

    @Test func nonFiniteNumbersAreNull() {
        #expect(JSONText.text(["a": .number(.nan), "b": .number(.infinity)]) == #"{"a":null,"b":null}"#)
    }

    @Test func sortsKeysAsFoundationDoes() throws {
        let keys = ["a10", "a9", "B", "a", "_", "é", "Z", "b", "aa", "A1", "a_b", "a-b", "a.b", "ab", "x2y", "x10y"]
        var ours: [String: JSONValue] = [:]
        var theirs: [String: Any] = [:]
        for (index, key) in keys.enumerated() {
            ours[key] = .integer(Int64(index))
            theirs[key] = index
        }
        #expect(JSONText.text(.object(ours)) == (try Self.foundation(theirs)))
        #expect(
            JSONText.text(["type": "x", "audio_end_ms": 1, "item_id": "i"])
                == (try Self.foundation(["type": "x", "audio_end_ms": 1, "item_id": "i"]))
        )
    }

    @Test func writesNestedValuesCompactly() {
        let value: JSONValue = ["b": [1, 2.5, "x", true, false, ["k": .null]], "a": [:]]
        #expect(JSONText.text(value) == #"{"a":{},"b":[1,2.5,"x",true,false,{"k":null}]}"#)
    }
}
