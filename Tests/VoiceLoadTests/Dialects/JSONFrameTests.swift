import Foundation
import Testing

@testable import VoiceLoad

@Suite("JSON frames and JSONValue from Foundation")
struct JSONFrameTests {
    @Test func parsesObjectsFromBothFrameKinds() throws {
        let text = #"{"a":1,"b":[true,null],"c":{"d":"e"}}"#
        for frame in [WireFrame.text(text), .binary(Array(text.utf8))] {
            let object = try JSONFrame.object(in: frame).get()
            #expect(
                JSONValue.objectValues(foundationObject: object) == [
                    "a": .number(1), "b": .array([.bool(true), .null]), "c": .object(["d": .string("e")]),
                ]
            )
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

    @Test func booleansStayDistinctFromZeroAndOne() throws {
        let object = try JSONFrame.object(in: .text(#"{"t":true,"f":false,"one":1,"zero":0,"half":0.5}"#)).get()
        #expect(
            JSONValue.objectValues(foundationObject: object) == [
                "t": .bool(true), "f": .bool(false), "one": .number(1), "zero": .number(0), "half": .number(0.5),
            ]
        )
    }

    @Test func nonJSONFoundationValuesAreRejected() {
        #expect(JSONValue(foundationObject: Date()) == nil)
        #expect(JSONValue.objectValues(foundationObject: ["k": [Date()]]) == nil)
    }

    @Test func compactTextIsSortedAndKeepsSlashes() {
        #expect(JSONFrame.text(["b": "x/y", "a": 1]) == #"{"a":1,"b":"x/y"}"#)
    }

    @Test func replacingNonFiniteNumbers() {
        let value = JSONValue.object(["a": .number(.nan), "b": .array([.number(-.infinity), .number(2)]), "c": .bool(true)])
        #expect(value.replacingNonFiniteNumbers() == .object(["a": .null, "b": .array([.null, .number(2)]), "c": .bool(true)]))
    }
}
