import Testing
import WSCore

@testable import AgentSimulator
@testable import VoiceLoad

/// Barge-ins and tool calls on every built-in dialect that has them, client against simulator
/// on synthetic time (`DialectCall`): `scenarios/interruption.yaml` (speech over the answer),
/// an interrupt command, and `scenarios/tool-call.yaml`. Each figure is checked, to the
/// microsecond, against the instant the agent acted and the one-way delay.
@Suite("Every dialect's barge-ins and tool calls on synthetic time")
struct DialectBargeInCallTests {
    static let oneWayDelayUs = DialectCallTests.oneWayDelayUs

    /// The dialects whose agent answers with audio, which a caller can barge in on.
    static let bargeInDialects = DialectRegistry.ids.filter { id in
        (try? DialectRegistry.client(id).repliesWithAudio) == true
    }

    /// The dialects with an interrupt message (`barge_in: command`).
    static let commandDialects = bargeInDialects.filter { id in
        guard var codec = try? DialectRegistry.client(id).makeCodec(parameters: [:]) else { return false }
        return !codec.frames(for: .interrupt).isEmpty
    }

    /// The dialects whose agent waits for the client's tool results.
    static let toolDialects = DialectRegistry.ids.filter { id in
        (try? DialectRegistry.server(id).awaitsToolResults) == true
    }

    /// The agent answers in real time, for 8 s (`interruption.yaml`'s `reply_ms`), so a
    /// barge-in finds it speaking.
    static func bargeInSimulator(dialect id: String) -> SimulatorConfiguration {
        var settings = DialectCallTests.simulator(dialect: id)
        settings.replySpeed = 1
        settings.replyDurationMs = 8_000
        return settings
    }

    static func call(dialect id: String, plan: SessionPlan, simulator: SimulatorConfiguration) throws -> DialectCall {
        var call = try DialectCall(plan: plan, simulator: simulator, oneWayDelayUs: oneWayDelayUs)
        call.run()
        return call
    }

    /// The single sample of `metric`, in µs.
    static func value(_ metric: MetricName, in call: DialectCall) -> Int64? {
        DialectCallTests.value(metric, in: call)
    }

    /// The least and the greatest sample of `metric`, in µs.
    static func range(_ metric: MetricName, in call: DialectCall) -> [Int64] {
        guard let range = call.recorder.snapshot().histograms[metric]?.exactRange else { return [] }
        return [Int64(range.min), Int64(range.max)]
    }

    @Test("speech over the answer: acknowledged when the agent reacts, cut off, answered", arguments: bargeInDialects)
    func speechBargeIn(id: String) throws {
        let plan = try DialectCallTests.plan(dialect: id, scenario: "interruption")
        let call = try Self.call(dialect: id, plan: plan, simulator: Self.bargeInSimulator(dialect: id))
        let d = Self.oneWayDelayUs
        #expect(call.failure == nil, "\(id): \(String(describing: call.failure))")
        #expect(call.errors.isEmpty, "\(id): \(call.errors.map { "\($0.0) \($0.1)" })")
        #expect(call.turns.map(\.label) == ["question", "barge-in"], "\(id)")
        #expect(call.turns.map(\.outcome) == [.interrupted, .completed], "\(id)")
        let row = try #require(call.turns.last)
        #expect(row.bargeIn && row.missedInterruption == false, "\(id)")

        // The agent reacts (reaction time 0) on the frame that completes its VAD's minimum
        // speech: within that minimum plus a frame and the delay of the speech's start.
        let speechStart = try #require(call.speechStarts.last)
        let reacted = try #require(call.agentInterruptedAt.first, "\(id): the agent never stopped")
        #expect(call.agentInterruptedAt.count == 1, "\(id)")
        let reactionUs = reacted.microseconds(since: speechStart)
        let vadMinSpeechUs = Int64(call.agent.configuration.vadMinSpeechMs) * 1_000
        #expect(reactionUs > 0 && reactionUs <= vadMinSpeechUs + Int64(plan.frameMs) * 1_000 + d, "\(id): \(reactionUs) µs")

        // Its signals arrive one delay later; the last chunk of the talked-over answer is the
        // last one it sent before them, and none follows them.
        #expect(Self.value(.intAckMs, in: call) == reactionUs + d, "\(id)")
        let lastChunk = try #require(call.replyChunksSentAt.last { $0 <= reacted })
        #expect(Self.value(.intCutoffMs, in: call) == lastChunk.microseconds(since: speechStart) + d, "\(id)")
        #expect(row.audioAfterAckUs == 0, "\(id)")
        if plan.dialect.cancelsResponses {
            #expect(Self.value(.intCancelMs, in: call) == reactionUs + d, "\(id)")
        } else {
            #expect(row.intCancelUs == nil, "\(id)")
        }
        #expect(row.intCommandRttUs == nil, "\(id): no command was sent")

        // Both answers start the injected latency and two delays after their speech ends.
        let expectedUs = DialectCallTests.replyLatencyMs * 1_000 + 2 * d
        #expect(Self.range(.firstAudioFromEndMs, in: call) == [expectedUs, expectedUs], "\(id)")
    }

    /// The question, then the interrupt command once 1.5 s of the answer has played.
    static let commandScenario = """
        name: interrupt-command
        quiet_ms: 500
        steps:
          - connect
          - wait: ready
          - wait: greeting
            timeout_ms: 20000
          - say: clip.wav
            label: question
          - barge_in: command
            after_heard_ms: 1500
            label: stop
          - hangup
        """

    @Test("the interrupt command: acknowledged a round trip after it leaves", arguments: commandDialects)
    func commandBargeIn(id: String) throws {
        let plan = try DialectCallTests.plan(dialect: id, yaml: Self.commandScenario, name: "interrupt-command")
        let call = try Self.call(dialect: id, plan: plan, simulator: Self.bargeInSimulator(dialect: id))
        let d = Self.oneWayDelayUs
        #expect(call.failure == nil, "\(id): \(String(describing: call.failure))")
        #expect(call.errors.isEmpty, "\(id): \(call.errors.map { "\($0.0) \($0.1)" })")
        #expect(call.turns.map(\.label) == ["question", "stop"], "\(id)")
        #expect(call.turns.first?.outcome == .interrupted, "\(id)")
        let row = try #require(call.turns.last)
        #expect(row.bargeIn && row.missedInterruption == false, "\(id)")

        // The command reaches the agent one delay after it leaves; the agent stops at once.
        let sent = try #require(call.interruptCommandsSentAt.first)
        #expect(call.interruptCommandsSentAt.count == 1, "\(id)")
        #expect(call.agentInterruptedAt == [sent.advanced(byMicroseconds: d)], "\(id)")
        #expect(Self.value(.intCommandRttMs, in: call) == 2 * d, "\(id)")
        #expect(Self.value(.intAckMs, in: call) == 2 * d, "\(id)")
        let lastChunk = try #require(call.replyChunksSentAt.last { $0 <= sent.advanced(byMicroseconds: d) })
        #expect(Self.value(.intCutoffMs, in: call) == lastChunk.microseconds(since: sent) + d, "\(id)")
        #expect(row.audioAfterAckUs == 0, "\(id)")
    }

    @Test("a tool call answered after the step's delay; the answer follows the tool's latency", arguments: toolDialects)
    func toolCall(id: String) throws {
        let plan = try DialectCallTests.plan(dialect: id, scenario: "tool-call")
        var simulator = DialectCallTests.simulator(dialect: id)
        simulator.toolCall = "get_weather"
        let call = try Self.call(dialect: id, plan: plan, simulator: simulator)
        let d = Self.oneWayDelayUs
        #expect(call.failure == nil, "\(id): \(String(describing: call.failure))")
        #expect(call.errors.isEmpty, "\(id): \(call.errors.map { "\($0.0) \($0.1)" })")
        #expect(call.turns.map(\.outcome) == [.completed], "\(id)")

        // The agent hears the speech end one delay after the caller's and calls the tool the
        // injected latency later; the client answers `delay_ms` (200) after the call arrives,
        // and the agent speaks `toolLatencyMs` after the result reaches it.
        let speechEnd = try #require(call.speechEnds.last)
        let latencyUs = DialectCallTests.replyLatencyMs * 1_000
        let callSent = speechEnd.advanced(byMicroseconds: d + latencyUs)
        #expect(call.toolCallsSentAt == [callSent], "\(id)")
        let resultSent = callSent.advanced(byMicroseconds: d + 200_000)
        #expect(call.toolResultsSentAt == [resultSent], "\(id)")
        #expect(call.agent.statistics.toolResults == 1, "\(id)")
        let toolLatencyUs = Int64(simulator.toolLatencyMs) * 1_000
        let firstAudioArrives = resultSent.advanced(byMicroseconds: d + toolLatencyUs + d)
        #expect(Self.value(.firstAudioFromEndMs, in: call) == firstAudioArrives.microseconds(since: speechEnd), "\(id)")
        #expect(Self.value(.firstAudioFromEndMs, in: call) == latencyUs + 200_000 + toolLatencyUs + 4 * d, "\(id)")
    }
}
