import Testing
import VoiceLoad

@testable import AgentSimulator

@Suite("Fault plan: parsing, validation, layout and draws")
struct FaultPlanTests {
    @Test("the list and the JSON object give the same plan, laid out in the fixed order")
    func bothForms() throws {
        let list = try FaultPlan(parsing: "stall=0.01/turn, close=0.05/turn,stall=0.01, refuse:401=0.02")
        let object = try FaultPlan(parsing: #"{"refuse:401": 0.02, "close": {"turn": 0.05}, "stall": {"session": 0.01, "turn": 0.01}}"#)
        #expect(list == object)
        #expect(list.sessionFaults == [.init(.refuse(status: 401), probability: 0.02), .init(.stall, probability: 0.01)])
        #expect(list.turnFaults == [.init(.close(code: 1011), probability: 0.05), .init(.stall, probability: 0.01)])
        #expect(list.description == "refuse:401=0.02, stall=0.01, close:1011=0.05/turn, stall=0.01/turn")
        #expect(list.faults == [.refuse(status: 401), .stall, .close(code: 1011)])
        #expect(try FaultPlan(parsing: "stall=0.5/session") == FaultPlan(parsing: "stall=0.5"))
        #expect(FaultPlan().description == "none" && FaultPlan().isEmpty)
    }

    @Test("every kind parses, with its default argument, name and count key")
    func kinds() throws {
        let plan = try FaultPlan(
            parsing: "drop_turn_end=0.1,silence=0.1,error_event=0.1,oversized=0.1,malformed=0.1,stall=0.1,"
                + "close=0.1,slow_ready=0.1,refuse:429=0.05,refuse:403=0.05"
        )
        #expect(
            plan.sessionFaults.map(\.fault) == [
                .refuse(status: 403), .refuse(status: 429), .slowReady(ms: 30_000), .close(code: 1011), .stall, .malformed,
                .oversized(bytes: 17_825_792), .errorEvent, .silence, .dropTurnEnd,
            ]
        )
        #expect(
            plan.sessionFaults.map(\.fault.countKey) == [
                "refuse_403", "refuse_429", "slow_ready", "close_1011", "stall", "malformed", "oversized", "error_event", "silence",
                "drop_turn_end",
            ]
        )
        let arguments = try FaultPlan(parsing: "slow_ready:2500=0.1, close:4000=0.1, oversized:20000000=0.1, refuse:503=0.1")
        #expect(arguments.faults == [.refuse(status: 503), .slowReady(ms: 2_500), .close(code: 4_000), .oversized(bytes: 20_000_000)])
        #expect(arguments.faults.map(\.description) == ["refuse:503", "slow_ready:2500", "close:4000", "oversized:20000000"])
    }

    @Test(
        "a bad spec is refused with one line naming it and what is wrong",
        arguments: [
            ("", "no faults given"),
            ("{}", "no faults given"),
            ("bogus=0.1", "fault 'bogus=0.1': unknown kind 'bogus'"),
            ("refuse=0.1", "fault 'refuse=0.1': refuse needs a status, one of 401, 403, 429, 503"),
            ("refuse:404=0.1", "fault 'refuse:404=0.1': refuse needs a status"),
            ("refuse:503=0.1/turn", "fault 'refuse:503=0.1/turn': refuse acts when the session starts, so it is per session only"),
            ("slow_ready=0.1/turn", "slow_ready acts when the session starts"),
            ("slow_ready:0=0.1", "fault 'slow_ready:0=0.1': slow_ready takes milliseconds (1–600000), not '0'"),
            ("close:1006=0.1", "fault 'close:1006=0.1': close code 1006 cannot be sent"),
            ("close:abc=0.1", "fault 'close:abc=0.1': close takes a close code, not 'abc'"),
            ("oversized:1=0.1", "oversized takes a frame length in bytes (2–268435456), not '1'"),
            ("stall:5=0.1", "fault 'stall:5=0.1': stall takes no argument (got ':5')"),
            ("stall=1.5", "fault 'stall=1.5': probability 1.5 is not in [0, 1]"),
            ("stall=-0.1", "probability -0.1 is not in [0, 1]"),
            ("stall=lots", "fault 'stall=lots': probability 'lots' is not a number"),
            ("stall", "fault 'stall': expected KIND[:ARG]=P or KIND[:ARG]=P/turn"),
            ("stall=0.1,", "fault '': expected KIND[:ARG]=P"),
            ("stall=0.1/hour", "fault 'stall=0.1/hour': '/hour' is not a scope"),
            ("stall=0.1,stall=0.2", "fault 'stall=0.2': stall is given twice per session"),
            ("close=0.1/turn,close:1011=0.1/turn", "close:1011 is given twice per turn"),
            ("stall=0.6,close=0.5", "the per-session fault probabilities add up to 1.1, more than 1"),
            ("stall=0.6/turn,close=0.5/turn", "the per-turn fault probabilities add up to 1.1, more than 1"),
            (#"{"stall": "often"}"#, #"fault 'stall': expected a probability or {session: P, turn: P}, got "often""#),
            (#"{"stall": {"hour": 0.1}}"#, "fault 'stall': unknown scope 'hour' (session or turn)"),
            (#"{"stall": {"turn": "x"}}"#, #"fault 'stall (turn)': probability "x" is not a number"#),
            (#"{"stall": {}}"#, "fault 'stall': give a probability"),
            (#"{"stall": 0.1"#, "is not a JSON object"),
            (#"{"refuse:503": {"turn": 0.1}}"#, "fault 'refuse:503 (turn)': refuse acts when the session starts"),
        ]
    )
    func refused(spec: String, expected: String) {
        #expect {
            try FaultPlan(parsing: spec)
        } throws: { error in
            guard let error = error as? InputError else { return false }
            return error.message.contains(expected) && !error.message.contains("\n")
        }
    }

    @Test("probabilities adding up to exactly 1 are fine; 0 is allowed and never drawn")
    func bounds() throws {
        let full = try FaultPlan(parsing: "stall=0.7,close=0.2,malformed=0.1")
        for number in UInt64(1)...50 { #expect(full.sessionFault(sessionNumber: number, seed: 3) != nil) }
        let never = try FaultPlan(parsing: "stall=0")
        for number in UInt64(1)...50 { #expect(never.sessionFault(sessionNumber: number, seed: 3) == nil) }
    }

    @Test("the draw is frac(offset + n·φ), and u picks the fault whose interval holds it")
    func layout() throws {
        #expect(FaultPlan.draw(1, offset: 0) == 0.6180339887498949)
        #expect(abs(FaultPlan.draw(2, offset: 0) - 0.2360679774997898) < 1e-12)
        #expect(abs(FaultPlan.draw(1, offset: 0.5) - 0.1180339887498949) < 1e-12)
        let plan = try FaultPlan(parsing: "close=0.2,refuse:503=0.1")
        // refuse:503 holds [0, 0.1), close [0.1, 0.3), nothing [0.3, 1).
        #expect(FaultPlan.pick(0, in: plan.sessionFaults) == .refuse(status: 503))
        #expect(FaultPlan.pick(0.0999, in: plan.sessionFaults) == .refuse(status: 503))
        #expect(FaultPlan.pick(0.1, in: plan.sessionFaults) == .close(code: 1011))
        #expect(FaultPlan.pick(0.2999, in: plan.sessionFaults) == .close(code: 1011))
        #expect(FaultPlan.pick(0.3001, in: plan.sessionFaults) == nil)
        #expect(FaultPlan.pick(0.99, in: plan.sessionFaults) == nil)
        // Session n draws through the seed's session offset.
        let offset = FaultPlan.offset(seed: 7, scope: .session)
        for number in UInt64(1)...20 {
            #expect(
                plan.sessionFault(sessionNumber: number, seed: 7)
                    == FaultPlan.pick(FaultPlan.draw(number, offset: offset), in: plan.sessionFaults)
            )
        }
    }

    @Test("offsets lie in [0, 1), follow the seed, and differ between the scopes")
    func offsets() {
        for seed in UInt64(0)...20 {
            let session = FaultPlan.offset(seed: seed, scope: .session)
            let turn = FaultPlan.offset(seed: seed, scope: .turn)
            #expect((0..<1).contains(session) && (0..<1).contains(turn))
            #expect(session != turn)
            #expect(session == FaultPlan.offset(seed: seed, scope: .session))
        }
        #expect(FaultPlan.offset(seed: 1, scope: .session) != FaultPlan.offset(seed: 2, scope: .session))
    }

    @Test("over 100 sessions every fault strikes within 2 of p·100, for any seed")
    func countsAreClose() throws {
        let plan = try FaultPlan(
            parsing: "refuse:503=0.02,refuse:401=0.02,slow_ready=0.02,close=0.03,stall=0.02,malformed=0.02,"
                + "oversized=0.02,error_event=0.02,silence=0.02,drop_turn_end=0.01"
        )
        for seed in UInt64(1)...25 {
            var counts: [InjectedFault: Int] = [:]
            for number in UInt64(1)...100 {
                if let fault = plan.sessionFault(sessionNumber: number, seed: seed) { counts[fault, default: 0] += 1 }
            }
            for entry in plan.sessionFaults {
                #expect(abs(Double(counts[entry.fault] ?? 0) - entry.probability * 100) <= 2, "seed \(seed), \(entry.fault)")
            }
            #expect(abs(counts.values.reduce(0, +) - 20) <= 2, "seed \(seed)")
        }
    }

    @Test("the reply drawer numbers replies across sessions and draws the turn layout")
    func replyDrawer() throws {
        let plan = try FaultPlan(parsing: "close:4000=0.3/turn,stall=0.5")
        let drawer = ReplyFaultDrawer(plan: plan, seed: 9)
        let drawn = (1...40).map { _ in drawer.next() }
        let expected = (UInt64(1)...40).map { plan.turnFault(replyNumber: $0, seed: 9) }
        #expect(drawn == expected)
        #expect(drawn.allSatisfy { $0 == nil || $0 == .close(code: 4_000) })
        #expect(abs(drawn.compactMap { $0 }.count - 12) <= 2)
        #expect(ReplyFaultDrawer(plan: try FaultPlan(parsing: "stall=1"), seed: 9).next() == nil)
    }

    @Test("the plan appears in the configuration's summary, and only when set")
    func summary() throws {
        var configuration = SimulatorConfiguration()
        #expect(configuration.summary["faults"] == nil)
        configuration.faults = try FaultPlan(parsing: "close:4000=0.02/turn,refuse:503=0.05")
        #expect(configuration.summary["faults"] == "refuse:503=0.05, close:4000=0.02/turn")
    }

    @Test(
        "a fault the dialect cannot express is refused when the configuration is validated",
        arguments: [
            (
                "datagrid", "drop_turn_end",
                "fault drop_turn_end cannot be injected on dialect datagrid: it has no end-of-turn message (a turn ends with a gap in the audio)"
            ),
            ("twilio-media-streams", "drop_turn_end", "a turn ends with a gap in the audio"),
            (
                "twilio-media-streams", "error_event",
                "fault error_event cannot be injected on dialect twilio-media-streams: it has no in-band error message"
            ),
            ("adk-seed", "error_event", "no in-band error message"),
            ("adk-legacy", "error_event", "no in-band error message"),
            ("adk-events", "slow_ready", "it has no ready message"),
            ("deepgram-stt", "silence", "it answers with transcripts, not audio"),
            ("deepgram-stt", "drop_turn_end", "it has no end-of-turn message"),
            ("deepgram-stt", "error_event", "no in-band error message"),
            ("pipecat-webrtc", "oversized", "a WebRTC call's data channel message is no WebSocket frame"),
            ("openai-realtime-webrtc", "oversized", "a WebRTC call's data channel message is no WebSocket frame"),
        ]
    )
    func unsupported(dialect: String, kind: String, expected: String) throws {
        var configuration = SimulatorConfiguration()
        configuration.dialect = dialect
        configuration.faults = try FaultPlan(parsing: "\(kind)=0.1")
        #expect {
            try configuration.validate()
        } throws: { error in
            (error as? InputError)?.message.contains(expected) ?? false
        }
    }

    @Test(
        "the faults each dialect can express pass",
        arguments: [
            (
                "datagrid",
                "refuse:401=0.05,slow_ready=0.05,close=0.05,stall=0.05,malformed=0.05,oversized=0.05,error_event=0.05,silence=0.05"
            ),
            ("openai-realtime", Self.everyKind),
            ("smallest-atoms", Self.everyKind),
            ("deepgram-agent", Self.everyKind),
            (
                "adk-events",
                "refuse:503=0.05,close=0.05,stall=0.05,malformed=0.05,oversized=0.05,error_event=0.05,silence=0.05,drop_turn_end=0.05"
            ),
            ("adk-seed", "close=0.05,stall=0.05,silence=0.05,drop_turn_end=0.05"),
            ("twilio-media-streams", "refuse:429=0.05,close=0.05,stall=0.05,malformed=0.05,oversized=0.05,silence=0.05"),
            ("deepgram-stt", "refuse:403=0.05,close=0.05,stall=0.05,malformed=0.05,oversized=0.05"),
        ]
    )
    func supported(dialect: String, faults: String) throws {
        var configuration = SimulatorConfiguration()
        configuration.dialect = dialect
        configuration.faults = try FaultPlan(parsing: faults)
        #expect(throws: Never.self) { try configuration.validate() }
    }

    static let everyKind =
        "refuse:503=0.05,slow_ready=0.05,close=0.05,stall=0.05,malformed=0.05,oversized=0.05,error_event=0.05,"
        + "silence=0.05,drop_turn_end=0.05"

    @Test("the oversized frame is a JSON string of exactly its length; the malformed frame is not JSON")
    func faultFrames() throws {
        let frames = FaultFrames(plan: try FaultPlan(parsing: "oversized=0.1"))
        let oversized = frames.frame(.oversized(bytes: InjectedFault.defaultOversizedBytes))
        #expect(oversized.kind == .text)
        #expect(oversized.payload.readableBytes == 17_825_792)
        let bytes = oversized.payload.readableBytesView
        #expect(bytes.first == UInt8(ascii: "\"") && bytes.last == UInt8(ascii: "\""))
        #expect(bytes.dropFirst().dropLast().allSatisfy { $0 == UInt8(ascii: " ") })
        #expect(
            JSONValue(parsing: String(decoding: FaultFrames.oversizedFrame(bytes: 40).payload.readableBytesView, as: UTF8.self))
                == .string(String(repeating: " ", count: 38))
        )
        #expect(JSONValue(parsing: FaultFrames.malformedText) == nil)
        #expect(frames.frame(.malformedJSON).payload.readableBytes == FaultFrames.malformedText.utf8.count)
    }
}
