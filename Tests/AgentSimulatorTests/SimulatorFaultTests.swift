import NIOCore
import NIOPosix
import Testing
import VoiceLoad
import WSClient

@testable import AgentSimulator

/// Faults at the session level. In `SessionScript` the utterance ends at 1400 and the reply is
/// due at 2100, 700 ms after it; with reply speed 0 a reply is sent whole at once.
@Suite("Simulator fault injection")
struct SimulatorFaultTests {
    typealias Action = SimulatorSession.Action

    /// A drawer that gives every reply `fault`.
    private static func always(_ fault: String) throws -> ReplyFaultDrawer {
        ReplyFaultDrawer(plan: try FaultPlan(parsing: "\(fault)=1/turn"), seed: 1)
    }

    /// The reply to the script's utterance, due at 2100.
    private static func reply(_ script: inout SessionScript) -> [Action] {
        script.start()
        _ = script.utterance()
        return script.fire(.reply, at: 2_100)
    }

    private static func wholeReply(_ clip: SimulatorSession.Clip, endEvents: Bool) -> [Action] {
        let key = "resp_sim-1_1"
        let ends: [Action] = endEvents ? [.send(.agentAudioDone(turnKey: key)), .send(.turnComplete(turnKey: key))] : []
        return [.send(.agentTurnStarted(turnKey: key, latencyMs: 700))] + (0..<50).map { .sendChunk(clip, index: $0) } + ends
    }

    @Test("close: the reply is a close with the fault's code, and the session ends")
    func close() throws {
        var script = SessionScript(replyFaults: try Self.always("close:4000"))
        #expect(Self.reply(&script) == [.close(code: 4_000)])
        #expect(script.agent.statistics.faultsInjected == ["close_4000": 1])
        #expect(script.agent.phase == .ended)
        #expect(script.feed(loud: true, from: 3_000, count: 10).isEmpty)
        #expect(script.receive(.stop, at: 4_000).isEmpty)
    }

    @Test("stall: nothing more is sent, whatever comes in or fires, and the socket is left open")
    func stall() throws {
        var script = SessionScript(replyFaults: try Self.always("stall"))
        #expect(Self.reply(&script).isEmpty)
        #expect(script.agent.phase == .stalled)
        #expect(script.feed(loud: true, from: 3_000, count: 10).isEmpty)
        #expect(script.feed(loud: false, from: 3_400, count: 10).isEmpty)
        for timer: SimulatorSession.Timer in [.reply, .nextChunk, .userTranscript, .closeAfterEnd, .ready] {
            #expect(script.fire(timer, at: 5_000).isEmpty)
        }
        #expect(script.receive(.interrupt, at: 5_000).isEmpty)
        #expect(script.receive(.stop, at: 5_000).isEmpty)
        #expect(script.agent.statistics.faultsInjected == ["stall": 1])
    }

    @Test(
        "malformed, oversized and error_event send their frame, then the reply as usual",
        arguments: [
            ("malformed", Action.sendInvalid(.malformedJSON), "malformed"),
            ("oversized", .sendInvalid(.oversized(bytes: 17_825_792)), "oversized"),
            ("oversized:20000000", .sendInvalid(.oversized(bytes: 20_000_000)), "oversized"),
            ("error_event", .send(.error(code: "simulated_fault", message: "injected fault")), "error_event"),
        ]
    )
    func extraFrame(fault: String, frame: Action, key: String) throws {
        var healthy = SessionScript()
        var faulty = SessionScript(replyFaults: try Self.always(fault))
        let expected = Self.reply(&healthy)
        #expect(Self.reply(&faulty) == [frame] + expected)
        #expect(faulty.agent.statistics.faultsInjected == [key: 1])
        // The rest of the turn, end events included, is untouched.
        #expect(faulty.fire(.nextChunk, at: 2_140) == healthy.fire(.nextChunk, at: 2_140))
    }

    @Test("silence: the reply's length of silence, with the usual turn events")
    func silence() throws {
        var script = SessionScript(replyFaults: try Self.always("silence")) { $0.replySpeed = 0 }
        #expect(Self.reply(&script) == Self.wholeReply(.silence, endEvents: true))
        #expect(script.agent.statistics.faultsInjected == ["silence": 1])
    }

    @Test("drop_turn_end: the reply without agentAudioDone and turnComplete, sent whole or paced")
    func dropTurnEnd() throws {
        var whole = SessionScript(replyFaults: try Self.always("drop_turn_end")) { $0.replySpeed = 0 }
        #expect(Self.reply(&whole) == Self.wholeReply(.reply, endEvents: false))
        #expect(whole.agent.statistics.faultsInjected == ["drop_turn_end": 1])

        var paced = SessionScript(replyFaults: try Self.always("drop_turn_end"))
        _ = Self.reply(&paced)
        // Chunk 49, the last, is due at 2100 + 49 × 40 ms.
        #expect(paced.fire(.nextChunk, at: 4_060) == (1..<50).map { .sendChunk(.reply, index: $0) })
        #expect(paced.agent.stream == nil)
    }

    @Test("the greeting never gets a fault, per turn or per session")
    func greeting() throws {
        let cases: [(plan: String, drawer: ReplyFaultDrawer?)] = [("stall=0", try Self.always("close")), ("close=1", nil)]
        for (plan, drawer) in cases {
            var script = SessionScript(replyFaults: drawer) {
                $0.greets = true
                $0.replySpeed = 0
                $0.faults = try! FaultPlan(parsing: plan)
            }
            script.start()
            let greeting = script.fire(.greeting, at: 300)
            #expect(greeting.first == .send(.agentTurnStarted(turnKey: "resp_sim-1_1", latencyMs: 0)))
            #expect(greeting.last == .send(.turnComplete(turnKey: "resp_sim-1_1")))
            #expect(script.agent.statistics.faultsInjected.isEmpty)
            // The first reply to the caller gets it.
            _ = script.utterance()
            #expect(script.fire(.reply, at: 2_100) == [.close(code: 1_011)])
            #expect(script.agent.statistics.faultsInjected == ["close_1011": 1])
        }
    }

    @Test("a session's fault strikes at its first reply only, and that reply draws no turn fault")
    func sessionScope() throws {
        var script = SessionScript(replyFaults: try Self.always("error_event")) {
            $0.replySpeed = 0
            $0.faults = try! FaultPlan(parsing: "malformed=1")
        }
        let first = Self.reply(&script)
        #expect(first.first == .sendInvalid(.malformedJSON))
        #expect(!first.contains(.send(.error(code: "simulated_fault", message: "injected fault"))))
        _ = script.feed(loud: true, from: 5_040, count: 10)
        _ = script.feed(loud: false, from: 5_440, count: 5)
        let second = script.fire(.reply, at: 6_100)
        #expect(second.first == .send(.error(code: "simulated_fault", message: "injected fault")))
        #expect(!second.contains(.sendInvalid(.malformedJSON)))
        #expect(script.agent.statistics.faultsInjected == ["malformed": 1, "error_event": 1])
    }

    @Test("slow_ready: ready comes the fault's delay late, counted when it is set in motion")
    func slowReady() throws {
        var script = SessionScript { $0.faults = try! FaultPlan(parsing: "slow_ready:5000=1") }
        #expect(script.receive(.start(parameters: [:]), at: 0).last == .schedule(.ready, at: SessionScript.at(5_100)))
        #expect(script.agent.statistics.faultsInjected == ["slow_ready": 1])
        #expect(script.fire(.ready, at: 5_100) == [.send(.ready)])
        #expect(script.agent.sessionFault == nil)
    }

    @Test("a fault whose moment never comes is not counted")
    func onlyPerformedFaultsCount() throws {
        // The client stops before the reply is due.
        var stopped = SessionScript(replyFaults: try Self.always("stall")) { $0.faults = try! FaultPlan(parsing: "close=1") }
        stopped.start()
        _ = stopped.utterance()
        _ = stopped.receive(.stop, at: 1_800)
        #expect(stopped.fire(.reply, at: 2_100).isEmpty)
        #expect(stopped.agent.statistics.faultsInjected.isEmpty)
        // A reply cancelled by the caller talking again never starts; the next one gets the fault.
        var interrupted = SessionScript { $0.faults = try! FaultPlan(parsing: "malformed=1") }
        interrupted.start()
        _ = interrupted.utterance()
        _ = interrupted.feed(loud: true, from: 1_640, count: 10)
        #expect(interrupted.agent.statistics.faultsInjected.isEmpty)
        _ = interrupted.feed(loud: false, from: 2_040, count: 5)
        #expect(interrupted.fire(.reply, at: 2_700).first == .sendInvalid(.malformedJSON))
        #expect(interrupted.agent.statistics.faultsInjected == ["malformed": 1])
        // A refusal never reaches a session: it is the listener's.
        var refused = SessionScript { $0.faults = try! FaultPlan(parsing: "refuse:503=1") }
        #expect(Self.reply(&refused).first == .send(.agentTurnStarted(turnKey: "resp_sim-1_1", latencyMs: 700)))
        #expect(refused.agent.statistics.faultsInjected.isEmpty)
    }

    @Test("speech-to-text: the fault strikes at the final transcript")
    func speechToText() throws {
        var healthy = SessionScript(speaks: false)
        var faulty = SessionScript(speaks: false, replyFaults: try Self.always("error_event"))
        let expected = Self.reply(&healthy)
        #expect(expected.count == 2)
        #expect(Self.reply(&faulty) == [.send(.error(code: "simulated_fault", message: "injected fault"))] + expected)
        var closed = SessionScript(speaks: false, replyFaults: try Self.always("close"))
        #expect(Self.reply(&closed) == [.close(code: 1_011)])
    }

    @Test("with a tool call the fault strikes when the reply starts, after the tool")
    func afterTool() throws {
        var script = SessionScript(replyFaults: try Self.always("close")) { $0.toolCall = "lookup" }
        let due = Self.reply(&script)
        #expect(due.first == .send(.toolCall(name: "lookup", status: "started", id: "call_sim-1_1", arguments: "{}")))
        #expect(script.agent.statistics.faultsInjected.isEmpty)
        #expect(
            script.fire(.toolDone, at: 2_300) == [
                .send(.toolCall(name: "lookup", status: "completed", id: "call_sim-1_1", arguments: "{}")), .close(code: 1_011),
            ]
        )
        #expect(script.agent.statistics.faultsInjected == ["close_1011": 1])
    }

    @Test("statistics add up fault counts across sessions")
    func statisticsAdd() {
        var total = SimulatorStatistics()
        var one = SimulatorStatistics()
        one.faultsInjected = ["close_1011": 1, "stall": 2]
        var two = SimulatorStatistics()
        two.faultsInjected = ["stall": 1, "refuse_503": 4]
        total.add(one)
        total.add(two)
        #expect(total.faultsInjected == ["close_1011": 1, "stall": 3, "refuse_503": 4])
    }

    @Test("silence frames are the reply's, all silence, only when the plan has silence")
    func silenceAudio() throws {
        let dialect = DeepgramAgentServerDialect()
        var configuration = SimulatorConfiguration()
        configuration.dialect = "deepgram-agent"
        #expect(try ReplyAudio(configuration: configuration, dialect: dialect).chunks[.silence] == nil)
        configuration.faults = try FaultPlan(parsing: "silence=0.1/turn")
        let audio = try ReplyAudio(configuration: configuration, dialect: dialect)
        let silence = try #require(audio.chunks[.silence])
        let reply = try #require(audio.chunks[.reply])
        #expect(silence.count == reply.count && silence.count > 0)
        #expect(silence.map(\.byteCount) == reply.map(\.byteCount))
        for chunk in silence {
            #expect(chunk.sharedFrame?.payload.readableBytesView.allSatisfy { $0 == 0 } == true)
        }
    }
}

/// Fault injection through the simulator's socket: refusals happen at the upgrade.
@Suite("Simulator fault injection over a socket", .timeLimit(.minutes(1)))
struct SimulatorFaultSocketTests {
    @Test("refused upgrades get the status and a JSON body, in the order of requests, and are counted")
    func refusals() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        var configuration = SimulatorConfiguration()
        configuration.seed = 5
        configuration.faults = try FaultPlan(parsing: "refuse:503=0.4")
        let agent = try await AgentSimulator.start(configuration: configuration, group: group)
        let endpoint = try WebSocketEndpoint(parsing: agent.url)
        var refused = 0
        for number in UInt64(1)...10 {
            let future = WebSocketClient.connect(to: endpoint, on: group.next(), onEvent: { _ in })
            if configuration.faults.sessionFault(sessionNumber: number, seed: 5) == .refuse(status: 503) {
                refused += 1
                await #expect(throws: WebSocketConnectError.upgradeRejected(status: 503, body: AgentSimulator.refusalBody(status: 503))) {
                    try await future.get()
                }
            } else {
                let connection = try await future.get()
                connection.close()
                try await connection.closeFuture.get()
            }
        }
        #expect((2...6).contains(refused))
        #expect(JSONValue(parsing: AgentSimulator.refusalBody(status: 503)) != nil)
        #expect(await agent.settle(timeoutMs: 10_000))
        #expect(agent.faultsInjected == ["refuse_503": refused])
        #expect(agent.statistics.sessions == 10 - refused)
        try await agent.stop()
        try await group.shutdownGracefully()
    }

    @Test("a plan's faults read 0 before any strikes")
    func zeros() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        var configuration = SimulatorConfiguration()
        configuration.faults = try FaultPlan(parsing: "refuse:401=0.1,close=0.1/turn")
        let agent = try await AgentSimulator.start(configuration: configuration, group: group)
        #expect(agent.faultsInjected == ["refuse_401": 0, "close_1011": 0])
        #expect(await agent.settle(timeoutMs: 1_000))
        try await agent.stop()
        try await group.shutdownGracefully()
    }
}
