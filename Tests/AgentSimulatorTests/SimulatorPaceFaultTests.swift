import Testing
import VoiceLoad

@testable import AgentSimulator

/// The faults that change the pace of a reply's audio (`slow_audio`, `audio_gap`), on synthetic
/// time. In `SessionScript` the reply (50 chunks of 40 ms) is due at 2100.
@Suite("Simulator pace faults")
struct SimulatorPaceFaultTests {
    typealias Action = SimulatorSession.Action

    private static func always(_ fault: String) throws -> ReplyFaultDrawer {
        ReplyFaultDrawer(plan: try FaultPlan(parsing: "\(fault)=1/turn"), seed: 1)
    }

    /// Runs the script's reply to its end, firing each `nextChunk` timer when it is due:
    /// the moment (ms) each chunk was sent, and the moment of the end events.
    private static func chunkTimes(_ script: inout SessionScript) -> (chunks: [Int64: Int64], endAt: Int64?) {
        script.start()
        _ = script.utterance()
        var actions = script.fire(.reply, at: 2_100)
        var now: Int64 = 2_100
        var chunks: [Int64: Int64] = [:]
        var endAt: Int64?
        while true {
            var next: Int64?
            for action in actions {
                switch action {
                case .sendChunk(.reply, let index): chunks[Int64(index)] = now
                case .send(.turnComplete): endAt = now
                case .schedule(.nextChunk, let instant): next = instant.microseconds(since: SessionScript.at(0)) / 1_000
                default: break
                }
            }
            guard let next else { return (chunks, endAt) }
            now = next
            actions = script.fire(.nextChunk, at: now)
        }
    }

    @Test("slow_audio:0.8: chunk i is sent at 2100 + i × 50 ms (40 ms of audio per 50 ms), then the end events")
    func slowAudio() throws {
        var script = SessionScript(replyFaults: try Self.always("slow_audio:0.8"))
        let (chunks, endAt) = Self.chunkTimes(&script)
        #expect(chunks.count == 50)
        for index in Int64(0)..<50 { #expect(chunks[index] == 2_100 + index * 50, "chunk \(index)") }
        #expect(try #require(endAt) == 2_100 + 49 * 50)
        #expect(script.agent.statistics.faultsInjected == ["slow_audio": 1])
    }

    @Test("slow_audio sets the pace whatever the reply speed: at speed 0 the reply still comes at 0.5 × real time")
    func slowAudioOverridesSpeed() throws {
        var script = SessionScript(replyFaults: try Self.always("slow_audio:0.5")) { $0.replySpeed = 0 }
        let (chunks, _) = Self.chunkTimes(&script)
        #expect(chunks[1] == 2_180 && chunks[49] == 2_100 + 49 * 80)
    }

    @Test("audio_gap:300: chunks 0–24 in real time, then one pause of 300 ms before chunk 25, the rest in real time")
    func audioGap() throws {
        var script = SessionScript(replyFaults: try Self.always("audio_gap:300"))
        let (chunks, endAt) = Self.chunkTimes(&script)
        #expect(chunks.count == 50)
        for index in Int64(0)..<25 { #expect(chunks[index] == 2_100 + index * 40, "chunk \(index)") }
        for index in Int64(25)..<50 { #expect(chunks[index] == 2_100 + index * 40 + 300, "chunk \(index)") }
        #expect(try #require(endAt) == 2_100 + 49 * 40 + 300)
        #expect(script.agent.statistics.faultsInjected == ["audio_gap": 1])
    }

    @Test("audio_gap at reply speed 0: the first half at once, the second half 300 ms later")
    func audioGapWhole() throws {
        var script = SessionScript(replyFaults: try Self.always("audio_gap:300")) { $0.replySpeed = 0 }
        let (chunks, endAt) = Self.chunkTimes(&script)
        #expect((0..<25).allSatisfy { chunks[$0] == 2_100 })
        #expect((25..<50).allSatisfy { chunks[$0] == 2_400 })
        #expect(try #require(endAt) == 2_400)
    }

    @Test("a healthy reply after a faulty one is paced as usual")
    func nextReplyHealthy() throws {
        let drawer = ReplyFaultDrawer(plan: try FaultPlan(parsing: "slow_audio:0.8=0.5/turn"), seed: 1)
        var faulted: SessionScript?
        var healthy: SessionScript?
        for _ in 0..<6 where faulted == nil || healthy == nil {
            var script = SessionScript(replyFaults: drawer)
            let (chunks, _) = Self.chunkTimes(&script)
            if script.agent.statistics.faultsInjected["slow_audio"] == 1 {
                #expect(chunks[1] == 2_150)
                faulted = script
            } else {
                #expect(chunks[1] == 2_140)
                healthy = script
            }
        }
        #expect(faulted != nil && healthy != nil)
    }

    @Test(
        "the arguments parse, print and count by kind",
        arguments: [
            ("slow_audio:0.8", InjectedFault.slowAudio(rate: 0.8), "slow_audio:0.8", "slow_audio"),
            ("slow_audio:1", .slowAudio(rate: 1), "slow_audio:1.0", "slow_audio"),
            ("audio_gap:300", .audioGap(ms: 300), "audio_gap:300", "audio_gap"),
        ]
    )
    func parses(spec: String, fault: InjectedFault, description: String, key: String) throws {
        let plan = try FaultPlan(parsing: "\(spec)=0.2/turn")
        #expect(plan.turnFaults.map(\.fault) == [fault])
        #expect(fault.description == description && fault.countKey == key && fault.actsOnReply)
    }

    @Test(
        "a bad pace or pause is refused with one line",
        arguments: [
            ("slow_audio", "slow_audio needs a pace, a fraction of real time in 0.01–1.0 (slow_audio:0.8)"),
            ("slow_audio:0", "slow_audio needs a pace, a fraction of real time in 0.01–1.0 (slow_audio:0.8), not '0'"),
            ("slow_audio:1.5", "not '1.5'"),
            ("slow_audio:fast", "not 'fast'"),
            ("slow_audio:nan", "not 'nan'"),
            ("audio_gap", "audio_gap needs the pause in milliseconds (audio_gap:300)"),
            ("audio_gap:0", "audio_gap takes milliseconds (1–60000), not '0'"),
            ("audio_gap:long", "not 'long'"),
        ]
    )
    func refused(spec: String, expected: String) {
        #expect {
            try FaultPlan(parsing: "\(spec)=0.1/turn")
        } throws: { error in
            let message = (error as? InputError)?.message ?? ""
            return message.hasPrefix("fault '\(spec)=0.1/turn': ") && message.contains(expected)
        }
    }

    @Test("speech-to-text has no audio to slow down or pause", arguments: ["slow_audio:0.8", "audio_gap:300"])
    func speechToTextRefuses(fault: String) throws {
        var configuration = SimulatorConfiguration()
        configuration.dialect = "deepgram-stt"
        configuration.faults = try FaultPlan(parsing: "\(fault)=0.1/turn")
        #expect {
            try configuration.validate()
        } throws: { error in
            (error as? InputError)?.message.contains("it answers with transcripts, not audio") ?? false
        }
        configuration.dialect = "openai-realtime"
        #expect(throws: Never.self) { try configuration.validate() }
    }
}
