import Testing
import VoiceLoad
import WSCore

@testable import AgentSimulator

private func ms(_ value: Int64) -> MonotonicInstant {
    MonotonicInstant(nanoseconds: 10_000_000_000 + UInt64(value) * 1_000_000)
}

/// 40 ms of PCM16 16 kHz: a loud square wave or silence.
private func frame(loud: Bool) -> [UInt8] {
    (0..<640).flatMap { index -> [UInt8] in
        let sample: Int16 = loud ? (index % 20 < 10 ? 8_000 : -8_000) : 0
        let bits = UInt16(bitPattern: sample)
        return [UInt8(bits & 0xFF), UInt8(bits >> 8)]
    }
}

private func configuration() -> SimulatorConfiguration {
    var configuration = SimulatorConfiguration()
    configuration.readyDelayMs = 100
    configuration.greetingDelayMs = 200
    configuration.vadSilenceMs = 200
    configuration.replyLatency = .fixed(ms: 700)
    configuration.replyChunkMs = 40
    configuration.userTranscripts = false
    return configuration
}

private func session(_ configuration: SimulatorConfiguration = configuration()) -> SimulatorSession {
    SimulatorSession(
        configuration: configuration,
        sessionStart: .onClientStart,
        inputFormat: .pcm16(16_000),
        chunkCounts: [.greeting: 3, .reply: 5],
        sessionNumber: 1
    )
}

@Suite("SimulatorSession basics")
struct SimulatorSessionTests {
    @Test("start → started, ready after the delay, then the greeting streamed in real time")
    func startAndGreeting() {
        var agent = session()
        #expect(agent.opened(at: ms(0)) == [.send(.connectionOpened(sessionID: "sim-1"))])
        #expect(
            agent.receive(.start(parameters: [:]), at: ms(0)) == [
                .send(.sessionStarted(sessionID: "sim-1", conversationID: "conv-sim-1")),
                .schedule(.ready, at: ms(100)),
            ]
        )
        #expect(agent.timerFired(.ready, at: ms(100)) == [.send(.ready), .schedule(.greeting, at: ms(300))])
        let key = "resp_sim-1_1"
        #expect(
            agent.timerFired(.greeting, at: ms(300)) == [
                .send(.agentTurnStarted(turnKey: key, latencyMs: 0)), .sendChunk(.greeting, index: 0),
                .schedule(.nextChunk, at: ms(340)),
            ]
        )
        #expect(agent.timerFired(.nextChunk, at: ms(341)) == [.sendChunk(.greeting, index: 1), .schedule(.nextChunk, at: ms(380))])
        #expect(
            agent.timerFired(.nextChunk, at: ms(380)) == [
                .sendChunk(.greeting, index: 2), .send(.agentAudioDone(turnKey: key)), .send(.turnComplete(turnKey: key)),
            ]
        )
        #expect(agent.stream == nil)
    }

    @Test("the reply is due at the end of speech + latency, however late the VAD decides")
    func replyTiming() {
        var agent = session()
        _ = agent.receive(.start(parameters: [:]), at: ms(0))
        _ = agent.timerFired(.ready, at: ms(100))
        // Ten loud frames arriving at 1040, 1080, …, 1400: speech ends with the frame at 1400.
        var actions: [SimulatorSession.Action] = []
        for index in 0..<10 { actions += agent.receive(.audio(frame(loud: true)), at: ms(1_040 + 40 * Int64(index))) }
        // The stream started at 1000 ms (first frame arrived at 1040): speech heard from 0 ms in.
        #expect(actions == [.send(.userSpeechStarted(audioMs: 0))])
        actions = []
        for index in 0..<5 { actions += agent.receive(.audio(frame(loud: false)), at: ms(1_440 + 40 * Int64(index))) }
        // 200 ms of silence is reached with the frame at 1600; the reply is due at 1400 + 700.
        #expect(actions == [.send(.userSpeechStopped(audioMs: 400)), .schedule(.reply, at: ms(2_100))])
        #expect(
            agent.timerFired(.reply, at: ms(2_100)).prefix(2) == [
                .send(.agentTurnStarted(turnKey: "resp_sim-1_1", latencyMs: 700)), .sendChunk(.reply, index: 0),
            ]
        )
        #expect(agent.statistics.replies == 1 && agent.statistics.userTurns == 1)
        #expect(agent.replyLatenessUs == [0])
    }

    @Test("a reply timer that fires late is recorded as the reply's lateness, in µs from its due time")
    func replyLateness() {
        var agent = session()
        _ = agent.receive(.start(parameters: [:]), at: ms(0))
        _ = agent.timerFired(.ready, at: ms(100))
        for index in 0..<10 { _ = agent.receive(.audio(frame(loud: true)), at: ms(1_040 + 40 * Int64(index))) }
        for index in 0..<5 { _ = agent.receive(.audio(frame(loud: false)), at: ms(1_440 + 40 * Int64(index))) }
        // Due at 2100 ms; the loop gets to the timer 3 ms later.
        _ = agent.timerFired(.reply, at: ms(2_103))
        #expect(agent.replyLatenessUs == [3_000])
        // A timer of a reply already dropped records nothing.
        _ = agent.timerFired(.reply, at: ms(2_200))
        #expect(agent.replyLatenessUs == [3_000])
    }

    @Test("speech during the reply stops it and sends interrupted; with barge-in off it goes on")
    func bargeIn() {
        for bargeIn in [true, false] {
            var settings = configuration()
            settings.bargeIn = bargeIn
            settings.greets = false
            var agent = session(settings)
            _ = agent.receive(.start(parameters: [:]), at: ms(0))
            _ = agent.timerFired(.ready, at: ms(100))
            for index in 0..<5 { _ = agent.receive(.audio(frame(loud: true)), at: ms(1_000 + 40 * Int64(index))) }
            for index in 0..<5 { _ = agent.receive(.audio(frame(loud: false)), at: ms(1_200 + 40 * Int64(index))) }
            _ = agent.timerFired(.reply, at: ms(1_860))
            var actions: [SimulatorSession.Action] = []
            for index in 0..<3 { actions += agent.receive(.audio(frame(loud: true)), at: ms(1_900 + 40 * Int64(index))) }
            if bargeIn {
                #expect(
                    actions == [
                        .send(.userSpeechStarted(audioMs: 400)), .cancel(.nextChunk), .send(.interrupted),
                        .send(.responseCancelled(turnKey: "resp_sim-1_1")),
                    ]
                )
                #expect(agent.stream == nil && agent.statistics.interruptions == 1)
            } else {
                // Ignored entirely: not even the speech start, which clients read as an acknowledgement.
                #expect(actions == [])
                #expect(agent.stream != nil)
            }
        }
    }

    @Test("the client's interrupt command stops the reply; stop ends the session")
    func commands() {
        var settings = configuration()
        settings.replySpeed = 0
        var agent = session(settings)
        _ = agent.receive(.start(parameters: [:]), at: ms(0))
        _ = agent.timerFired(.ready, at: ms(100))
        #expect(agent.receive(.interrupt, at: ms(150)) == [])
        _ = agent.timerFired(.greeting, at: ms(300))  // speed 0: all chunks at once
        #expect(agent.stream == nil)
        #expect(
            agent.receive(.stop, at: ms(400)) == [
                .cancel(.ready), .cancel(.greeting), .send(.ended(transcript: [])), .schedule(.closeAfterEnd, at: ms(2_400)),
            ]
        )
        #expect(agent.receive(.audio(frame(loud: true)), at: ms(500)) == [])
    }
}

@Suite("LatencyModel")
struct LatencyModelTests {
    @Test(
        "parses the documented forms",
        arguments: [
            ("700", LatencyModel.fixed(ms: 700)), ("fixed:250", .fixed(ms: 250)),
            ("uniform:600-900", .uniform(minMs: 600, maxMs: 900)), ("normal:700,50", .normal(meanMs: 700, standardDeviationMs: 50)),
        ]
    )
    func parses(text: String, model: LatencyModel) throws {
        #expect(try LatencyModel(parsing: text) == model)
    }

    @Test("rejects nonsense with a one-line reason", arguments: ["fast", "uniform:9-1", "normal:5", "-3", "gauss:1,2"])
    func rejects(text: String) {
        #expect(throws: InputError.self) { try LatencyModel(parsing: text) }
    }

    @Test("seeded draws repeat and stay in range")
    func seeded() {
        var first = SeededGenerator(seed: 42)
        var second = SeededGenerator(seed: 42)
        let model = LatencyModel.uniform(minMs: 600, maxMs: 900)
        let a = (0..<100).map { _ in model.sampleUs(using: &first) }
        let b = (0..<100).map { _ in model.sampleUs(using: &second) }
        #expect(a == b)
        #expect(a.allSatisfy { (600_000...900_000).contains($0) })
    }

    @Test("a reply latency below the VAD window is refused")
    func validation() {
        var settings = SimulatorConfiguration()
        settings.vadSilenceMs = 500
        settings.replyLatency = .fixed(ms: 300)
        #expect(throws: InputError.self) { try settings.validate() }
    }
}

/// A speech-to-text session (it does not speak), open on connect.
private func transcriber(sessionNumber: UInt64) -> SimulatorSession {
    SimulatorSession(
        configuration: configuration(),
        sessionStart: .onOpen,
        speaks: false,
        inputFormat: .pcm16(16_000),
        chunkCounts: [:],
        sessionNumber: sessionNumber
    )
}

@Suite("SimulatorSession speech-to-text")
struct SimulatorSessionSpeechToTextTests {
    @Test("without speech the answer is interim results while the user talks, then a final result and UtteranceEnd")
    func transcripts() {
        var agent = transcriber(sessionNumber: 7)
        #expect(agent.opened(at: ms(0)) == [.send(.connectionOpened(sessionID: "sim-7")), .schedule(.ready, at: ms(100))])
        #expect(agent.timerFired(.ready, at: ms(100)) == [.send(.ready)])  // no greeting: it does not speak
        var actions: [SimulatorSession.Action] = []
        for index in 0..<20 { actions += agent.receive(.audio(frame(loud: true)), at: ms(1_040 + 40 * Int64(index))) }
        #expect(actions == [.send(.userSpeechStarted(audioMs: 0)), .schedule(.interimResult, at: ms(1_580))])
        let interim = agent.timerFired(.interimResult, at: ms(1_580))
        #expect(interim.count == 2)
        guard case .send(.speechResult(let partial)) = interim.first else {
            Issue.record("expected an interim result, got \(interim)")
            return
        }
        #expect(!partial.isFinal && partial.startS == 0 && partial.durationS > 0)
        actions = []
        for index in 0..<5 { actions += agent.receive(.audio(frame(loud: false)), at: ms(1_840 + 40 * Int64(index))) }
        #expect(actions == [.cancel(.interimResult), .send(.userSpeechStopped(audioMs: 800)), .schedule(.reply, at: ms(2_500))])
        let final = agent.timerFired(.reply, at: ms(2_500))
        #expect(
            final == [
                .send(
                    .speechResult(
                        SpeechResult(text: SimulatorSession.transcriptText, isFinal: true, speechFinal: true, startS: 0, durationS: 0.8)
                    )
                ),
                .send(.utteranceEnd(lastWordEndS: 0.8)),
            ]
        )
    }
    @Test("an eager end of turn the dialect can withdraw: speech before the final end resumes the turn, whose final then spans it all")
    func resumedTurn() {
        var agent = transcriber(sessionNumber: 7)
        agent.endOfTurnWithdrawable = true
        _ = agent.opened(at: ms(0))
        _ = agent.timerFired(.ready, at: ms(100))
        var actions: [SimulatorSession.Action] = []
        for index in 0..<10 { actions += agent.receive(.audio(frame(loud: true)), at: ms(1_040 + 40 * Int64(index))) }
        #expect(actions.first == .send(.userSpeechStarted(audioMs: 0)))
        actions = []
        // 200 ms of silence: the speech stopped at 400 ms (arrived 1400); the final is due at 2100.
        for index in 0..<5 { actions += agent.receive(.audio(frame(loud: false)), at: ms(1_440 + 40 * Int64(index))) }
        #expect(actions == [.cancel(.interimResult), .send(.userSpeechStopped(audioMs: 400)), .schedule(.reply, at: ms(2_100))])
        // The user goes on at 600 ms, before 2100: the final is withdrawn and the turn resumes.
        actions = []
        for index in 0..<10 { actions += agent.receive(.audio(frame(loud: true)), at: ms(1_640 + 40 * Int64(index))) }
        #expect(actions == [.cancel(.reply), .send(.userTurnResumed(audioMs: 600)), .schedule(.interimResult, at: ms(2_180))])
        #expect(agent.statistics.turnsResumed == 1 && agent.statistics.userTurns == 1)
        actions = []
        for index in 0..<5 { actions += agent.receive(.audio(frame(loud: false)), at: ms(2_040 + 40 * Int64(index))) }
        // The second stop at 1000 ms (arrived 2000): the final is due at 2700 and covers 0…1 s.
        #expect(actions == [.cancel(.interimResult), .send(.userSpeechStopped(audioMs: 1_000)), .schedule(.reply, at: ms(2_700))])
        guard case .send(.speechResult(let final))? = agent.timerFired(.reply, at: ms(2_700)).first else {
            Issue.record("expected the final result")
            return
        }
        #expect(final.isFinal && final.startS == 0 && final.durationS == 1)
        #expect(agent.statistics.replies == 1)
        // Without the withdrawable end (deepgram-stt), speech after the stop is a new utterance.
        var plain = transcriber(sessionNumber: 8)
        _ = plain.opened(at: ms(0))
        _ = plain.timerFired(.ready, at: ms(100))
        for index in 0..<10 { _ = plain.receive(.audio(frame(loud: true)), at: ms(1_040 + 40 * Int64(index))) }
        for index in 0..<5 { _ = plain.receive(.audio(frame(loud: false)), at: ms(1_440 + 40 * Int64(index))) }
        actions = []
        for index in 0..<10 { actions += plain.receive(.audio(frame(loud: true)), at: ms(1_640 + 40 * Int64(index))) }
        #expect(actions.first == .send(.userSpeechStarted(audioMs: 600)))
        #expect(plain.statistics.turnsResumed == 0 && plain.statistics.userTurns == 2)
    }
}
