import Foundation
import Testing

@testable import VoiceLoad

@Suite("JSONValue parsing")
struct JSONValueParsingTests {
    private static func parse(_ text: String) -> JSONValue? {
        JSONValue(parsing: text)
    }

    @Test func readsEveryKindOfValue() {
        #expect(
            Self.parse(#" {"a" : [1, -2.5, 3e2, true, false, null, "x", {}, []], "b": {"c": {"d": ""}}} "#)
                == .object([
                    "a": .array([
                        .integer(1), .number(-2.5), .number(300), .bool(true), .bool(false), .null, .string("x"), .object([:]), .array([]),
                    ]),
                    "b": .object(["c": .object(["d": .string("")])]),
                ])
        )
        #expect(Self.parse("7") == .integer(7))
        #expect(Self.parse(#""bare""#) == .string("bare"))
        #expect(Self.parse(" null\n") == .null)
    }

    @Test func readsEscapes() {
        #expect(Self.parse(#""\" \\ \/ \b \f \n \r \t""#) == .string("\" \\ / \u{8} \u{C} \n \r \t"))
        #expect(Self.parse(#""\u00e9\u00C9\u0000\u001f""#) == .string("éÉ\u{0}\u{1F}"))
        #expect(Self.parse(#""a\ud83d\ude00b""#) == .string("a😀b"))
        #expect(Self.parse(#""é 😀 €""#) == .string("é 😀 €"))
    }

    @Test(arguments: [
        #""\ud83d""#, #""\ude00""#, #""\ud83dx""#, #""\ud83d\u0041""#, #""\u12""#, #""\x""#, #""a"#, "\"a\u{1}\"",
        "", " ", "{", "}", "[1,]", "[,1]", #"{"a":1,}"#, #"{"a" 1}"#, #"{a:1}"#, "{'a':1}", "01", "-", "1.", ".5", "1e", "1e+",
        "+1", "--1", "0x10", "NaN", "Infinity", "1e400", "tru", "nul", "True", "[1] 2", "{} {}", "/* */{}", "\u{FEFF}{}",
    ])
    func rejectsWhatJSONRejects(text: String) {
        #expect(Self.parse(text) == nil)
    }

    /// A long string is scanned eight bytes at a time: an escape, a non-ASCII character, a
    /// control character or the closing quote at every position of a 40-byte string is read
    /// as it is byte by byte.
    @Test func readsLongStringsWhateverComesWhere() throws {
        let plain = String(repeating: "ABCDEFGHIJ", count: 4)
        for position in 0...40 {
            let head = String(plain.prefix(position)), tail = String(plain.dropFirst(position))
            #expect(Self.parse("\"\(head)\\n\(tail)\"") == .string(head + "\n" + tail), "escape at \(position)")
            #expect(Self.parse("\"\(head)é\(tail)\"") == .string(head + "é" + tail), "é at \(position)")
            #expect(Self.parse("\"\(head)\u{7F}\(tail)\"") == .string(head + "\u{7F}" + tail), "DEL at \(position)")
            #expect(Self.parse("\"\(head)\u{1F}\(tail)\"") == nil, "control character at \(position)")
            #expect(Self.parse("[\"\(head)\", \"\(tail)\"]") == .array([.string(head), .string(tail)]), "quote at \(position)")
            var bytes = Array("\"\(plain)\"".utf8)
            bytes[1 + min(position, 39)] = 0xC3  // a lone lead byte: invalid UTF-8 in bytes
            #expect((try? JSONValue.parse(bytes)) == nil, "invalid UTF-8 at \(position)")
        }
    }

    @Test func rejectsInvalidUTF8InBytes() {
        #expect((try? JSONValue.parse([0x22, 0xC3, 0x22])) == nil)
        #expect((try? JSONValue.parse([0x22, 0xED, 0xA0, 0x80, 0x22])) == nil)
        #expect((try? JSONValue.parse([0x22, 0xC3, 0xA9, 0x22])) == .string("é"))
        #expect((try? JSONValue.parse([0x22, 0x5C, 0x6E, 0xC3, 0x22])) == nil)
    }

    @Test func rejectsDeepNestingWithoutExhaustingTheStack() {
        #expect(Self.parse(String(repeating: "[", count: 100_000)) == nil)
        #expect(Self.parse(String(repeating: "[", count: 500) + String(repeating: "]", count: 500)) != nil)
    }

    @Test func integersAreExact() {
        #expect(Self.parse("9007199254740993") == .integer(9_007_199_254_740_993))
        #expect(Self.parse("9223372036854775807") == .integer(.max))
        #expect(Self.parse("-9223372036854775808") == .integer(.min))
        #expect(Self.parse("-0") == .integer(0))
        // Beyond 64 bits, and anything with a fraction or an exponent, is a double.
        #expect(Self.parse("9223372036854775808") == .number(9_223_372_036_854_775_808))
        #expect(Self.parse("12345678901234567890123") == .number(1.2345678901234568e22))
        #expect(Self.parse("1.0") == .number(1))
        #expect(Self.parse("0.1") == .number(0.1))
        #expect(Self.parse("2E-3") == .number(0.002))
    }

    @Test func integersEqualTheirDoubles() {
        #expect(JSONValue.integer(3) == .number(3))
        #expect(JSONValue.integer(3) != .number(3.5))
        #expect(JSONValue.integer(9_007_199_254_740_993) != .number(9_007_199_254_740_992))
        #expect(Set<JSONValue>([.integer(3), .number(3)]).count == 1)
        #expect(JSONValue.integer(1) != .bool(true))
    }

    @Test func valuesFoundationKeepsOtherwise() {
        // Foundation keeps a decimal beyond 64 bits and a negative zero; the parser reads a
        // double, and the writer gives an integral double below 10^15 as an integer.
        #expect(Self.parse("123456789012345678901").map(JSONText.text) == "1.2345678901234568e+20")
        #expect(Self.parse("-0.0").map(JSONText.text) == "0")
    }

    @Test func duplicateKeysKeepTheLast() {
        #expect(Self.parse(#"{"a":1,"a":2}"#) == .object(["a": .integer(2)]))
    }

    @Test func accessors() throws {
        let value = try #require(Self.parse(#"{"s":"x","i":12,"d":1.5,"big":9007199254740993,"b":true,"o":{"k":null},"a":[1]}"#))
        #expect(value["s"]?.stringValue == "x")
        #expect(value["i"]?.intValue == 12)
        #expect(value["i"]?.doubleValue == 12)
        #expect(value["d"]?.intValue == nil)
        #expect(value["d"]?.doubleValue == 1.5)
        #expect(value["big"]?.int64Value == 9_007_199_254_740_993)
        #expect(value["b"]?.boolValue == true)
        #expect(value["o"]?.objectValue == ["k": .null])
        #expect(value["o"]?["k"]?.isNull == true)
        #expect(value["a"]?.arrayValue == [.integer(1)])
        #expect(value["missing"] == nil)
        #expect(value["s"]?.intValue == nil)
    }

    @Test func codableKeepsIntegers() throws {
        let decoded = try JSONDecoder().decode(JSONValue.self, from: Data(#"{"id":9007199254740993,"x":0.5}"#.utf8))
        #expect(decoded == .object(["id": .integer(9_007_199_254_740_993), "x": .number(0.5)]))
        #expect(JSONText.text(decoded) == #"{"id":9007199254740993,"x":0.5}"#)
    }

    @Test(arguments: [
        #"{"type":"response.output_audio.delta","response_id":"resp_1","item_id":"item_1","output_index":0,"content_index":0,"delta":"AAAA"}"#,
        #"{"a":[1,-0.5,2.5e-3,1E+21,true,false,null,{"b":"\u00e9\ud83d\ude00\n\/\u001f"}],"A10":"x","a9":9223372036854775807}"#,
        #"{"tiny":5e-324,"max":1.7976931348623157e308,"frac":12345678.9,"neg":-2.5e-10}"#,
        #"["x",{"B":1,"a":2,"_":3,"a10":4,"a9":5}]"#,
    ])
    func readsWhatFoundationReadsAndWritesWhatItWrites(text: String) throws {
        let ours = try #require(Self.parse(text))
        let foundation = try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
        let written = try JSONSerialization.data(
            withJSONObject: foundation,
            options: [.sortedKeys, .withoutEscapingSlashes, .fragmentsAllowed]
        )
        #expect(JSONText.text(ours) == String(decoding: written, as: UTF8.self))
        #expect(Self.parse(JSONText.text(ours)) == ours)
    }
}
