import Foundation
import Testing

@testable import VoiceLoad

@Suite("vload wire: a codec driven by a script, for the conformance suite")
struct WireScriptTests {
    private func answers(
        _ dialect: any ClientDialect,
        _ lines: [String],
        parameters: [String: JSONValue] = [:]
    ) throws -> [[String: JSONValue]] {
        var script = try WireScript(dialect: dialect, parameters: parameters)
        return lines.map { script.answer(line: $0) }
    }

    @Test func sendsAndReceivesThroughOneCodec() throws {
        let answers = try answers(
            TwilioMediaStreamsClientDialect(),
            [
                #"{"send":"open"}"#, #"{"send":"audio","ms":20}"#, ##"{"send":"dtmf","digit":"#"}"##,
                #"{"receive":{"text":"{\"event\":\"clear\",\"streamSid\":\"MZ1\"}"}}"#,
            ]
        )
        #expect(answers[0]["frames"]?.arrayValue?.count == 2)  // connected, start
        let audio = try #require(answers[1]["audio"]?.stringValue)
        #expect(Data(base64Encoded: audio)?.count == 160)  // 20 ms of µ-law at 8 kHz
        let dtmf = try #require(answers[2]["frames"]?.arrayValue?.first?["text"]?.stringValue)
        #expect(dtmf.contains(##""digit":"#""##) && dtmf.contains(#""sequenceNumber":"3""#))
        #expect(answers[3]["events"]?.arrayValue?.first?["event"]?.stringValue == "agent.interrupted")
    }

    @Test func answersABadLineWithAnErrorAndGoesOn() throws {
        let answers = try answers(DatagridClientDialect(), ["nope", #"{"send":"fly"}"#, #"{"send":"stop"}"#])
        #expect(answers[0]["error"] != nil)
        #expect(answers[1]["error"]?.stringValue == "unknown send 'fly'")
        #expect(answers[2]["frames"] != nil)
    }

    @Test func namesTheURLTheDialectConnectsTo() throws {
        let answers = try answers(DeepgramSTTClientDialect(), [#"{"endpoint":"wss://api.deepgram.com/v1/listen"}"#])
        #expect(answers[0]["url"]?.stringValue?.hasPrefix("wss://api.deepgram.com/v1/listen?model=nova-3&") == true)
    }
}
