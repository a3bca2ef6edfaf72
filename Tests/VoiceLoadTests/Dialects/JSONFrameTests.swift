import Foundation
import Testing
import WSCore

@testable import VoiceLoad

@Suite("JSON frames")
struct JSONFrameTests {
    @Test func parsesObjectsFromBothFrameKinds() throws {
        let text = #"{"a":1,"b":[true,null],"c":{"d":"e"}}"#
        for frame in [WireFrame.text(text), .binary(Array(text.utf8))] {
            let object = try JSONFrame.object(in: frame).get()
            #expect(object == ["a": .integer(1), "b": .array([.bool(true), .null]), "c": .object(["d": .string("e")])])
        }
    }

    @Test func reasonsAreOneLine() {
        for text in ["", "{", "[]", "1", #""s""#, "null"] {
            guard case .failure(let error) = JSONFrame.object(in: .text(text)) else {
                Issue.record("expected a failure for \(text)")
                continue
            }
            #expect(!error.reason.isEmpty && !error.reason.contains("\n"))
        }
    }

    @Test(arguments: [
        ("", "empty frame"), ("{", "not JSON"), ("[]", "JSON is an array, not an object"),
        ("1", "JSON is a number or boolean, not an object"),
        (#""s""#, "JSON is a string, not an object"), ("null", "JSON is null, not an object"), ("{} x", "not JSON"),
    ])
    func reasons(text: String, reason: String) {
        #expect(JSONFrame.object(in: .text(text)) == .failure(JSONFrameError(reason: reason)))
        #expect(JSONFrame.object(in: .binary(Array(text.utf8))) == .failure(JSONFrameError(reason: reason)))
    }

    @Test func typedObjectReasons() {
        #expect(JSONFrame.typedObject(in: .text("{}")).map(\.type) == .failure(JSONFrameError(reason: #"message has no "type""#)))
        #expect(
            JSONFrame.typedObject(in: .text(#"{"type":[1]}"#)).map(\.type)
                == .failure(JSONFrameError(reason: #""type" is an array, not a string"#))
        )
        #expect(JSONFrame.typedObject(in: .text(#"{"type":"x","n":2}"#)).map(\.type) == .success("x"))
    }

    @Test func invalidUTF8InABinaryFrameIsNotJSON() {
        #expect(
            JSONFrame.object(in: .binary([0x7B, 0x22, 0x61, 0x22, 0x3A, 0x22, 0xFF, 0x22, 0x7D]))
                == .failure(JSONFrameError(reason: "not JSON"))
        )
    }

    @Test func booleansStayDistinctFromZeroAndOne() throws {
        let object = try JSONFrame.object(in: .text(#"{"t":true,"f":false,"one":1,"zero":0,"half":0.5}"#)).get()
        #expect(object == ["t": .bool(true), "f": .bool(false), "one": .integer(1), "zero": .integer(0), "half": .number(0.5)])
        #expect(object["one"] != .bool(true))
    }

    @Test func compactTextIsSortedAndKeepsSlashes() {
        #expect(JSONFrame.text(["b": "x/y", "a": 1]) == #"{"a":1,"b":"x/y"}"#)
    }

    @Test func replacingNonFiniteNumbers() {
        let value = JSONValue.object(["a": .number(.nan), "b": .array([.number(-.infinity), .number(2)]), "c": .bool(true)])
        #expect(value.replacingNonFiniteNumbers() == .object(["a": .null, "b": .array([.null, .number(2)]), "c": .bool(true)]))
    }
}
