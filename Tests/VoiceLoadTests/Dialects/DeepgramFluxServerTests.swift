import Testing
import WSCore

@testable import VoiceLoad

@Suite("Deepgram Flux server dialect (agent simulator side)")
struct DeepgramFluxServerTests {
    typealias Support = DialectTestSupport
    let dialect = DeepgramFluxServerDialect()
    static let target = "/v2/listen?model=flux-general-en&encoding=linear16&sample_rate=16000"
    static let eagerTarget = target + "&eager_eot_threshold=0.5"

    func frames(_ outputs: [AgentOutput], target: String = target) -> [WireFrame] {
        var codec = dialect.makeCodec(target: target)
        return outputs.flatMap { codec.frames(for: $0) }
    }

    func member(_ name: String, of frame: WireFrame?) -> JSONValue? {
        guard case .object(let object)? = Support.json(frame) else { return nil }
        return object[name]
    }

    static let turn: [AgentOutput] = [
        .connectionOpened(sessionID: "sim-3"), .ready, .userSpeechStarted(audioMs: 480),
        .speechResult(SpeechResult(text: "hello there", isFinal: false, speechFinal: false, startS: 0.48, durationS: 0.5)),
        .userSpeechStopped(audioMs: 2_080),
        .speechResult(SpeechResult(text: "hello there", isFinal: true, speechFinal: true, startS: 0.48, durationS: 1.6)),
    ]

    @Test func description() {
        #expect(dialect.id == "deepgram-flux")
        #expect(dialect.sessionStart == .onOpen)
        #expect(!dialect.speaks)
    }

    @Test func clientMessages() throws {
        var codec = dialect.makeCodec(target: Self.target)
        #expect(try codec.receive(.binary([1, 2])) == [.audio([1, 2])])
        #expect(try codec.receive(.text(#"{"type":"ForceEndTurn"}"#)) == [.commit])
        #expect(try codec.receive(.text(#"{"type":"CloseStream"}"#)) == [.stop])
        #expect(throws: DialectDecodingError.unknownType("KeepAlive")) { try codec.receive(.text(#"{"type":"KeepAlive"}"#)) }
    }

    @Test("a turn: Connected, StartOfTurn, Update, EndOfTurn, numbered in order; no eager end without the threshold")
    func turnWithoutEager() {
        let sent = frames(Self.turn)
        #expect(sent.map { member("type", of: $0) } == ["Connected", "TurnInfo", "TurnInfo", "TurnInfo"].map(JSONValue.string))
        #expect(sent.map { member("event", of: $0) } == [nil, "StartOfTurn", "Update", "EndOfTurn"].map { $0.map(JSONValue.string) })
        #expect(sent.map { member("sequence_id", of: $0) } == (0..<4).map { JSONValue.integer(Int64($0)) })
        #expect(sent.allSatisfy { member("request_id", of: $0) == .string("sim-3") })
        let end = sent.last
        #expect(member("trigger", of: end) == .string("model"))
        #expect(member("audio_window_start", of: end) == .number(0.48))
        #expect(member("audio_window_end", of: end) == .number(2.08))
        #expect(member("transcript", of: end) == .string("hello there"))
        #expect(member("turn_index", of: end) == .integer(0))
        guard case .array(let words)? = member("words", of: end) else {
            Issue.record("no words")
            return
        }
        #expect(words.count == 2)
        #expect(member("trigger", of: sent[2]) == nil, "trigger is on EndOfTurn only")
    }

    @Test("with eager_eot_threshold in the query, EagerEndOfTurn goes out when the speech stops")
    func eager() {
        let sent = frames(Self.turn, target: Self.eagerTarget)
        let events = sent.map { member("event", of: $0) }
        #expect(events == [nil, "StartOfTurn", "Update", "EagerEndOfTurn", "EndOfTurn"].map { $0.map(JSONValue.string) })
        #expect(member("audio_window_end", of: sent[3]) == .number(2.08))
    }

    @Test("Configure with an eager threshold is answered with ConfigureSuccess and turns eager ends on")
    func configure() throws {
        var codec = dialect.makeCodec(target: Self.target)
        _ = codec.frames(for: .connectionOpened(sessionID: "sim-4"))
        _ = codec.frames(for: .ready)
        #expect(
            try codec.receive(.text(#"{"type":"Configure","thresholds":{"eager_eot_threshold":0.4,"eot_threshold":0.8}}"#))
                == [.configure(parameters: ["eager_eot_threshold": .number(0.4), "eot_threshold": .number(0.8)])]
        )
        let answers = codec.takeAcknowledgements()
        #expect(codec.takeAcknowledgements() == [])
        #expect(answers.count == 1)
        #expect(member("type", of: answers.first) == .string("ConfigureSuccess"))
        #expect(member("sequence_id", of: answers.first) == .integer(1))
        #expect(member("thresholds", of: answers.first) == .object(["eager_eot_threshold": .number(0.4), "eot_threshold": .number(0.8)]))
        #expect(codec.frames(for: .userSpeechStopped(audioMs: 900)).count == 1)
        // With eager ends on, an eager end can be withdrawn: the user going on is TurnResumed,
        // in the same turn, and the client reads it as such.
        #expect(codec.withdrawsEndOfTurnOnResume)
        let resumed = codec.frames(for: .userTurnResumed(audioMs: 1_300))
        #expect(member("event", of: resumed.first) == .string("TurnResumed"))
        #expect(member("turn_index", of: resumed.first) == .integer(0))
        var client = DeepgramFluxClientDialect().makeCodec(parameters: [:])
        #expect(resumed.flatMap { client.receive($0).events } == [.userTurn(.turnResumed)])
        #expect(!dialect.makeCodec(target: Self.target).withdrawsEndOfTurnOnResume, "no eager threshold, nothing to withdraw")
    }

    @Test("ForceEndTurn's flushed result is an EndOfTurn with trigger manual; the next turn's index follows")
    func manual() {
        let flushed = SpeechResult(text: "hi", isFinal: true, speechFinal: false, startS: 0.2, durationS: 0.4, fromFinalize: true)
        let sent = frames([.speechResult(flushed), .userSpeechStarted(audioMs: 1_000)])
        #expect(member("trigger", of: sent.first) == .string("manual"))
        #expect(member("turn_index", of: sent.last) == .integer(1))
    }

    @Test("the client codec reads what the simulator writes")
    func roundTrip() {
        var client = DeepgramFluxClientDialect().makeCodec(parameters: [:])
        let events = frames(Self.turn, target: Self.eagerTarget).flatMap { client.receive($0).events }
        #expect(events.first == .sessionReady)
        #expect(events.contains(.userTurn(.eagerEndOfTurn)))
        #expect(events.last == .userTurn(.endOfTurn))
        let understood = events.allSatisfy { event in
            switch event {
            case .unknown, .malformed: return false
            default: return true
            }
        }
        #expect(understood)
    }

    @Test func errorOutput() {
        let sent = frames([.error(code: "X1", message: "boom")])
        #expect(member("type", of: sent.first) == .string("Error"))
        #expect(member("code", of: sent.first) == .string("X1"))
        #expect(member("description", of: sent.first) == .string("boom"))
    }
}
