import Foundation
import Testing

@testable import VoiceLoad

@Suite("Flat JSON objects read without Foundation")
struct FlatJSONObjectTests {
    private static func flat(_ text: String) -> [String: JSONValue]? {
        var text = text
        guard let object = text.withUTF8({ FlatJSONObject.parse($0) }) else { return nil }
        return JSONValue.objectValues(foundationObject: object)
    }

    private static func foundation(_ text: String) -> [String: JSONValue]? {
        guard let parsed = try? JSONSerialization.jsonObject(with: Data(text.utf8)), let object = parsed as? [String: Any] else {
            return nil
        }
        return JSONValue.objectValues(foundationObject: object)
    }

    @Test(arguments: [
        #"{"type":"response.output_audio.delta","response_id":"resp_1","item_id":"item_1","output_index":0,"content_index":0,"delta":"AAAA"}"#,
        #"{}"#,
        #" { "a" : "b" , "n" : -12 , "z" : null } "#,
        "{\"a\":\"é ü 😀\",\n\"b\":123456789012345678}",
        #"{"a":"x","a":"y"}"#,
    ])
    func readsWhatFoundationReads(text: String) throws {
        let flat = try #require(Self.flat(text))
        #expect(flat == Self.foundation(text))
        #expect(JSONValue.objectValues(foundationObject: try JSONFrame.object(in: .text(text)).get()) == flat)
    }

    @Test(arguments: [
        #"{"a":{"b":1}}"#, #"{"a":[1]}"#, #"{"a":"x\"y"}"#, #"{"a":1.5}"#, #"{"a":1e3}"#, #"{"a":true}"#,
        #"{"a":false}"#, #"{"a":01}"#, #"{"a":-}"#, #"{"a":1234567890123456789}"#, #"{"a":"x"} x"#,
        #"{"a":"x",}"#, #"{"a" "x"}"#, #"{"a":"x""#, #"{a:1}"#, "{\"a\":\"x\ty\"}", #"["a"]"#, "", #"{"a":nul}"#,
        // Foundation drops a byte-order mark opening a key or a string (found by the fuzz target).
        "{\"type\":\"\u{FEFF}Audio\"}", "{\"\u{FEFF}type\":\"Audio\"}",
    ])
    func leavesEverythingElseToTheFullParser(text: String) {
        #expect(Self.flat(text) == nil)
        // And the frame reads as Foundation reads it, or fails as it does.
        let full = try? JSONFrame.object(in: .text(text)).get()
        #expect(full.flatMap { JSONValue.objectValues(foundationObject: $0) } == Self.foundation(text))
    }

    @Test func integersAreNumbersLikeFoundations() throws {
        let object = try #require(
            { () -> [String: Any]? in
                var text = #"{"n":7}"#
                return text.withUTF8 { FlatJSONObject.parse($0) }
            }()
        )
        #expect(object["n"] as? Int == 7)
        #expect(object["n"] as? Double == 7)
        #expect(object["n"] is NSNumber)
    }
}
