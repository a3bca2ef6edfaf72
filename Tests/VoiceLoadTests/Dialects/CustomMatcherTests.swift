import Testing
import WSCore

@testable import VoiceLoad

/// The matcher language of docs/custom-dialects.md, through `session.ready` rules.
@Suite("Custom dialect: paths and matchers")
struct CustomMatcherTests {
    typealias Support = CustomDialectTestSupport

    /// Whether a `session.ready` rule with `matcher` fires on `frame`.
    func matches(_ matcher: String, _ frame: WireFrame) throws -> Bool {
        let dialect = try Support.dialect("events:\n  session.ready: {match: \(matcher)}\n")
        return Support.events(dialect, frame).contains(.sessionReady)
    }

    func matches(_ matcher: String, _ text: String) throws -> Bool {
        try matches(matcher, .text(text))
    }

    @Test func scalarEqualityIsJSONEquality() throws {
        #expect(try matches(#"{"$.type": "ready"}"#, #"{"type":"ready"}"#))
        #expect(try !matches(#"{"$.type": "ready"}"#, #"{"type":"readyx"}"#))
        #expect(try matches(#"{"$.n": 1}"#, #"{"n":1.0}"#))
        #expect(try !matches(#"{"$.n": 1}"#, #"{"n":"1"}"#))
        #expect(try !matches(#"{"$.n": "1"}"#, #"{"n":1}"#))
        #expect(try matches(#"{"$.flag": true}"#, #"{"flag":true}"#))
        #expect(try !matches(#"{"$.flag": true}"#, #"{"flag":1}"#))
        #expect(try !matches(#"{"$.n": 1}"#, #"{"n":true}"#))
        #expect(try matches(#"{"$.x": null}"#, #"{"x":null}"#))
        #expect(try !matches(#"{"$.x": null}"#, #"{}"#))
        #expect(try !matches(#"{"$.obj": "a"}"#, #"{"obj":{"a":1}}"#))
    }

    @Test func nestedMembersIndicesAndQuotedNames() throws {
        #expect(try matches(#"{"$.a.b.c": 3}"#, #"{"a":{"b":{"c":3}}}"#))
        #expect(try matches(#"{"$.a[1]": "y"}"#, #"{"a":["x","y"]}"#))
        #expect(try !matches(#"{"$.a[2]": "y"}"#, #"{"a":["x","y"]}"#))
        #expect(try matches(#"{"$.a[0].b": 1}"#, #"{"a":[{"b":1}]}"#))
        #expect(try matches(#"{"$['a.b']": 1}"#, #"{"a.b":1}"#))
        #expect(try matches(#"{"$[0]": 5}"#, "[5]"))
        #expect(try !matches(#"{"$.a.b": 1}"#, #"{"a":[{"b":1}]}"#))
    }

    @Test func wildcardMatchesWhenAnyElementDoes() throws {
        let frame = #"{"parts":[{"text":"hi"},{"inlineData":{"mimeType":"audio/pcm;rate=24000"}}]}"#
        #expect(try matches(#"{"$.parts[*].inlineData.mimeType": {prefix: "audio/"}}"#, frame))
        #expect(try matches(#"{"$.parts[*].text": "hi"}"#, frame))
        #expect(try !matches(#"{"$.parts[*].text": "bye"}"#, frame))
        #expect(try !matches(#"{"$.parts[*].text": "hi"}"#, #"{"parts":[]}"#))
        #expect(try matches(#"{"$.a[*][*]": 4}"#, #"{"a":[[1,2],[3,4]]}"#))
    }

    @Test func exists() throws {
        #expect(try matches(#"{"$.a": {exists: true}}"#, #"{"a":0}"#))
        #expect(try !matches(#"{"$.a": {exists: true}}"#, #"{"a":null}"#), "null counts as absent")
        #expect(try !matches(#"{"$.a": {exists: true}}"#, #"{"b":1}"#))
        #expect(try matches(#"{"$.a": {exists: false}}"#, #"{"b":1}"#))
        #expect(try !matches(#"{"$.a": {exists: false}}"#, #"{"a":false}"#))
        #expect(try matches(#"{"$.p[*].x": {exists: false}}"#, #"{"p":[{"y":1},{"y":2}]}"#))
        #expect(try !matches(#"{"$.p[*].x": {exists: false}}"#, #"{"p":[{"y":1},{"x":2}]}"#))
    }

    @Test func inList() throws {
        let matcher = #"{"$.type": {in: ["ready", "session.updated", 3]}}"#
        #expect(try matches(matcher, #"{"type":"session.updated"}"#))
        #expect(try matches(matcher, #"{"type":3}"#))
        #expect(try !matches(matcher, #"{"type":"session.created"}"#))
        #expect(try !matches(matcher, #"{"other":"ready"}"#))
    }

    @Test func prefixAndRegexTestStringsOnly() throws {
        #expect(try matches(#"{"$.mime": {prefix: "audio/"}}"#, #"{"mime":"audio/pcm"}"#))
        #expect(try !matches(#"{"$.mime": {prefix: "audio/"}}"#, #"{"mime":"text/plain"}"#))
        #expect(try !matches(#"{"$.n": {prefix: "1"}}"#, #"{"n":12}"#))
        #expect(try matches(#"{"$.mime": {regex: "rate=(16|24)000$"}}"#, #"{"mime":"audio/pcm;rate=24000"}"#))
        #expect(try !matches(#"{"$.mime": {regex: "rate=(16|24)000$"}}"#, #"{"mime":"audio/pcm;rate=8000"}"#))
        #expect(try matches(#"{"$.t": {regex: "é+"}}"#, #"{"t":"caf\u00e9é"}"#))
    }

    @Test func truthy() throws {
        for truthy in [#"true"#, "1", "-0.5", #""x""#, "[0]", #"{"a":null}"#] {
            #expect(try matches(#"{"$.v": {truthy: true}}"#, #"{"v":\#(truthy)}"#), "\(truthy)")
            #expect(try !matches(#"{"$.v": {truthy: false}}"#, #"{"v":\#(truthy)}"#), "\(truthy)")
        }
        for falsy in ["false", "0", #""""#, "[]", "{}", "null"] {
            #expect(try !matches(#"{"$.v": {truthy: true}}"#, #"{"v":\#(falsy)}"#), "\(falsy)")
            #expect(try matches(#"{"$.v": {truthy: false}}"#, #"{"v":\#(falsy)}"#), "\(falsy)")
        }
        #expect(try matches(#"{"$.v": {truthy: false}}"#, "{}"))
    }

    @Test func severalConditionsOnOnePathAllHold() throws {
        let matcher = #"{"$.m": {prefix: "audio/", regex: "24000"}}"#
        #expect(try matches(matcher, #"{"m":"audio/pcm;rate=24000"}"#))
        #expect(try !matches(matcher, #"{"m":"audio/pcm;rate=16000"}"#))
        #expect(try !matches(matcher, #"{"m":"text/24000"}"#))
    }

    @Test func entriesAreANDedAndAnyIsOR() throws {
        let and = #"{"$.type": "vad", "$.state": "start"}"#
        #expect(try matches(and, #"{"type":"vad","state":"start"}"#))
        #expect(try !matches(and, #"{"type":"vad","state":"stop"}"#))
        let or = #"{any: [{"$.type": "interrupted"}, {"$.interrupted": true}]}"#
        #expect(try matches(or, #"{"type":"interrupted"}"#))
        #expect(try matches(or, #"{"interrupted":true}"#))
        #expect(try !matches(or, #"{"interrupted":false}"#))
        let mixed = #"{"$.kind": "event", any: [{"$.a": 1}, {"$.b": {exists: true}}]}"#
        #expect(try matches(mixed, #"{"kind":"event","b":"x"}"#))
        #expect(try !matches(mixed, #"{"kind":"other","a":1}"#))
        #expect(try !matches(mixed, #"{"kind":"event","a":2}"#))
    }

    @Test func frameKindAndRawText() throws {
        #expect(try matches(#"{"@frame": text, "$.type": "ready"}"#, #"{"type":"ready"}"#))
        #expect(try !matches(#"{"@frame": binary, "$.type": "ready"}"#, #"{"type":"ready"}"#))
        #expect(try matches(#"{"@frame": binary, "$.type": "ready"}"#, .binary(Array(#"{"type":"ready"}"#.utf8))))
        #expect(try matches(#"{"@raw": "PING"}"#, "PING"))
        #expect(try matches(#"{"@raw": {prefix: "{\"type\":\"re"}}"#, #"{"type":"ready"}"#))
        #expect(try matches(#"{"@raw": {regex: "^PO"}}"#, .binary(Array("PONG".utf8))))
    }
}
