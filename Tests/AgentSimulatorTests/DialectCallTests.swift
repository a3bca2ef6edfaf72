import Foundation
import Testing
import WSCore

@testable import AgentSimulator
@testable import VoiceLoad

/// Every built-in dialect's call of `scenarios/greeting.yaml` (connect, wait ready, wait
/// greeting, say, wait agent_turn_end, hangup), client against simulator, on synthetic time
/// (`DialectCall`): what the dialects' codecs and both sides' state machines decide, exactly.
/// The end-to-end suite keeps what only real sockets show.
@Suite("Every dialect's call on synthetic time")
struct DialectCallTests {
    /// The fixed one-way delay of every frame, and of the upgrade request and its answer.
    static let oneWayDelayUs: Int64 = 1_000
    /// The simulator's settings (the end-to-end suite's): ready 100 ms after its start, the
    /// greeting 200 ms after ready, the reply 700 ms after the end of the user's speech.
    static let readyDelayMs: Int64 = 100
    static let greetingDelayMs: Int64 = 200
    static let replyLatencyMs: Int64 = 700

    /// The synthetic clip: 500 ms of silence, 1 s of a 400 Hz tone at −12 dBFS peak, 500 ms of
    /// silence, PCM16 16 kHz. Its speech (500…1500 ms) starts and ends on a zero crossing and
    /// on a 10 ms window of both speech detectors, so both sides place its end alike.
    static func clip() -> [Int16] {
        let rateHz = 16_000
        let silence = [Int16](repeating: 0, count: rateHz / 2)
        let tone = (0..<rateHz).map { index in Int16((8_000 * sin(2 * Double.pi * 400 * Double(index) / Double(rateHz))).rounded()) }
        return silence + tone + silence
    }

    /// The plan `vload run` makes of the shipped scenario `scenarios/NAME.yaml` with the
    /// synthetic clip in place of each of its recordings, for dialect `id`.
    static func plan(dialect id: String, scenario name: String = "greeting") throws -> SessionPlan {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let shipped = try String(contentsOf: root.appendingPathComponent("scenarios/\(name).yaml"), encoding: .utf8)
        let yaml = shipped.replacing(/audio\/[a-z0-9-]+\.wav/, with: "clip.wav")
        #expect(yaml != shipped, "\(name).yaml speaks no recording")
        return try plan(dialect: id, yaml: yaml, name: name)
    }

    /// The plan `vload run` makes of scenario `yaml` for dialect `id`, its `clip.wav` being the
    /// synthetic clip (no socket is opened: the URL is only parsed).
    static func plan(dialect id: String, yaml: String, name: String) throws -> SessionPlan {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vload-dialect-call-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(wav(clip(), rateHz: 16_000)).write(to: directory.appendingPathComponent("clip.wav"))
        let scenario = try ScenarioLoader.parse(yaml: yaml, path: directory.appendingPathComponent("\(name).yaml").path)
        return try SessionPlanBuilder.build(
            scenario: scenario,
            dialect: try DialectRegistry.client(id),
            url: "ws://127.0.0.1:9/agent",
            token: "t0ken",
            frameMs: nil
        )
    }

    /// A mono PCM16 WAV file.
    static func wav(_ samples: [Int16], rateHz: UInt32) -> [UInt8] {
        func le32(_ value: UInt32) -> [UInt8] { withUnsafeBytes(of: value.littleEndian, Array.init) }
        func le16(_ value: UInt16) -> [UInt8] { withUnsafeBytes(of: value.littleEndian, Array.init) }
        let data = samples.flatMap { le16(UInt16(bitPattern: $0)) }
        let format = le16(1) + le16(1) + le32(rateHz) + le32(rateHz * 2) + le16(2) + le16(16)
        let body = Array("WAVEfmt ".utf8) + le32(UInt32(format.count)) + format + Array("data".utf8) + le32(UInt32(data.count)) + data
        return Array("RIFF".utf8) + le32(UInt32(body.count)) + body
    }

    static func simulator(dialect id: String) -> SimulatorConfiguration {
        var settings = SimulatorConfiguration()
        settings.dialect = id
        settings.replySpeed = 4
        settings.readyDelayMs = Int(readyDelayMs)
        settings.greetingDelayMs = Int(greetingDelayMs)
        settings.replyLatency = .fixed(ms: Int(replyLatencyMs))
        return settings
    }

    static func call(dialect id: String) throws -> DialectCall {
        var call = try DialectCall(plan: try plan(dialect: id), simulator: simulator(dialect: id), oneWayDelayUs: oneWayDelayUs)
        call.run()
        return call
    }

    /// The count of `metric`'s samples.
    static func count(_ metric: MetricName, in call: DialectCall) -> UInt64 {
        call.recorder.snapshot().histograms[metric]?.count ?? 0
    }

    /// The single sample of `metric`, in µs.
    static func value(_ metric: MetricName, in call: DialectCall) -> Int64? {
        guard let histogram = call.recorder.snapshot().histograms[metric], histogram.count == 1 else { return nil }
        return histogram.exactRange.map { Int64($0.min) }
    }

    @Test("the call completes with no error, every frame read on both sides", arguments: DialectRegistry.ids)
    func completes(id: String) throws {
        let call = try Self.call(dialect: id)
        #expect(call.failure == nil, "\(id): \(String(describing: call.failure))")
        #expect(call.session.outcome == .completed, "\(id)")
        #expect(call.errors.isEmpty, "\(id): \(call.errors.map { "\($0.0) \($0.1)" })")
        #expect(call.unknownEventTypes.isEmpty, "\(id): \(call.unknownEventTypes)")
        #expect(call.warnings.isEmpty, "\(id): \(call.warnings)")
        #expect(call.serverDecodeErrors.isEmpty, "\(id): \(call.serverDecodeErrors)")
        // Every frame of user audio the agent read is one frame of the dialect's input format.
        let frameBytes = call.plan.dialect.inputFormat.byteCount(forMilliseconds: call.plan.frameMs)
        #expect(!call.audioBytesReceived.isEmpty, "\(id)")
        #expect(call.audioBytesReceived.allSatisfy { $0 == frameBytes }, "\(id): \(Set(call.audioBytesReceived)) ≠ \(frameBytes)")
        #expect(call.turns.map(\.outcome) == [.completed], "\(id)")
    }

    @Test("ready by event or on open, as the dialect says, and the greeting where the agent greets", arguments: DialectRegistry.ids)
    func readyAndGreeting(id: String) throws {
        let call = try Self.call(dialect: id)
        let d = Self.oneWayDelayUs
        // The connect takes the upgrade's round trip; the agent starts when the socket opens
        // (d) or when the client's start message reaches it (3d).
        #expect(Self.value(.connectMs, in: call) == 2 * d, "\(id)")
        let agentStartUs = call.serverDialect.sessionStart == .onOpen ? d : 3 * d
        let readySentUs = agentStartUs + Self.readyDelayMs * 1_000
        let readyAtUs: Int64
        switch call.plan.dialect.readySignal {
        case .event:
            readyAtUs = readySentUs + d
            #expect(Self.value(.readyMs, in: call) == readyAtUs - 2 * d, "\(id)")
        case .onOpen:
            readyAtUs = 2 * d
            #expect(Self.count(.readyMs, in: call) == 0, "\(id): ready_ms is n/a when the open is the ready signal")
        }
        #expect(Self.value(.sessionSetupTotalMs, in: call) == readyAtUs, "\(id)")
        if call.serverDialect.speaks {
            let greetingArrivesUs = readySentUs + Self.greetingDelayMs * 1_000 + d
            #expect(Self.value(.greetingMs, in: call) == greetingArrivesUs - readyAtUs, "\(id)")
        } else {
            #expect(Self.count(.greetingMs, in: call) == 0, "\(id): a speech-to-text agent does not greet")
        }
    }

    @Test("the answer arrives at the end of speech + the injected latency + two one-way delays", arguments: DialectRegistry.ids)
    func answerLatency(id: String) throws {
        let call = try Self.call(dialect: id)
        let expectedUs = Self.replyLatencyMs * 1_000 + 2 * Self.oneWayDelayUs
        if call.plan.dialect.repliesWithAudio {
            #expect(Self.value(.firstAudioFromEndMs, in: call) == expectedUs, "\(id)")
            // The reply streams at 4× real time: its last chunk leaves (N−1) chunks / 4 after
            // its first, and the turn lasts from the first chunk's arrival to the last one's.
            let first = try #require(call.firstReplyChunkSentAt, "\(id)")
            let last = try #require(call.lastReplyChunkSentAt, "\(id)")
            let chunks = Int64(try #require(call.audio.chunkCounts[.reply]))
            #expect(last.microseconds(since: first) == (chunks - 1) * 10_000, "\(id)")
            #expect(Self.value(.turnDurationMs, in: call) == last.microseconds(since: first), "\(id)")
            // The turn ends by the dialect's event, which arrives with the last chunk, or by a
            // quiet gap of the scenario's quiet_ms after it (and the playback's end).
            let ended = try #require(call.stepsMetAt["wait_agent_turn_end"], "\(id)")
            let lastArrival = last.advanced(byMicroseconds: Self.oneWayDelayUs)
            switch call.plan.dialect.turnEndSignal {
            case .event, .eventOrAudioGap:  // no built-in dialect falls back; its event would come first
                #expect(ended == lastArrival, "\(id): \(ended.microseconds(since: lastArrival)) µs after the last chunk")
            case .audioGap:
                #expect(ended.microseconds(since: lastArrival) >= Int64(call.plan.scenario.quietMs) * 1_000, "\(id)")
            }
        } else {
            // Speech-to-text: the final result's position latency (its audio's end → arrival).
            #expect(Self.value(.sttFinalLatencyMs, in: call) == expectedUs, "\(id)")
            #expect(Self.count(.sttInterimLatencyMs, in: call) > 0, "\(id)")
        }
    }

    @Test("the metrics the dialect declares are produced, the others are absent", arguments: DialectRegistry.ids)
    func metrics(id: String) throws {
        let call = try Self.call(dialect: id)
        // Only a socket has connect phases; speech-to-text results are counted per result.
        let socketOnly: Set<MetricName> = [.dnsMs, .tcpMs, .tlsMs, .upgradeMs]
        let perResult: Set<MetricName> = [.sttInterimLatencyMs, .sttFinalLatencyMs]
        for metric in call.plan.metricsMeasured.subtracting(socketOnly).subtracting(perResult) {
            #expect(Self.count(metric, in: call) == 1, "\(id): \(metric.rawValue)")
        }
        // The simulator sends user transcripts on every dialect that has them (datagrid
        // measures them without promising them), as the end-to-end suite allows.
        let userTranscripts: Set<MetricName> = [.userTranscriptFirstPartialMs, .userTranscriptFinalMs]
        for metric in MetricName.endpointMetrics where !call.plan.dialect.measures.contains(metric) && !userTranscripts.contains(metric) {
            #expect(Self.count(metric, in: call) == 0, "\(id): \(metric.rawValue) should be n/a")
        }
    }

    static func isBinary(_ frame: WireFrame) -> Bool {
        if case .binary = frame { return true }
        return false
    }

    static func text(_ frame: WireFrame?) -> String {
        if case .text(let text)? = frame { return text }
        return ""
    }

    @Test(
        "what sets a dialect apart is on the wire",
        arguments: [
            "deepgram-agent", "openai-realtime", "twilio-media-streams", "telnyx-media-streaming", "plivo-audio-streaming",
            "exotel-voicebot", "vonage-websocket", "pipecat-protobuf",
        ]
    )
    func specialties(id: String) throws {
        let call = try Self.call(dialect: id)
        #expect(call.failure == nil, "\(id)")
        let audioFrames = call.audioBytesReceived.count
        switch id {
        case "deepgram-agent":
            // The server speaks first: `Welcome` on open, answered by the client's `Settings`.
            #expect(Self.text(call.framesToClient.first).contains("\"Welcome\""))
            #expect(Self.text(call.framesToServer.first).contains("\"Settings\""))
        case "openai-realtime":
            #expect(Self.text(call.framesToServer.first).contains("\"session.update\""))
        case "twilio-media-streams", "telnyx-media-streaming", "plivo-audio-streaming":
            // µ-law 8 kHz both ways: 160 bytes a 20 ms frame.
            #expect(call.plan.dialect.inputFormat == .mulaw8k)
            #expect(call.serverDialect.outputFormat == .mulaw8k)
            #expect(call.plan.frameMs == 20)
            // The agent's marks come back once their audio has played: the greeting's at least
            // (the answer's may be due after the hang-up).
            #expect(!call.marksPlayed.isEmpty, "\(id)")
        case "exotel-voicebot":
            #expect(call.plan.dialect.inputFormat == .pcm16(8_000))
            #expect(call.serverDialect.outputFormat == .pcm16(8_000))
            #expect(!call.marksPlayed.isEmpty, "\(id)")
        case "vonage-websocket":
            // Audio is binary PCM16 16 kHz both ways; the rest is text.
            #expect(call.plan.dialect.inputFormat == .pcm16(16_000))
            #expect(call.framesToServer.filter(Self.isBinary).count == audioFrames)
            #expect(call.framesToClient.contains(where: Self.isBinary))
        case "pipecat-protobuf":
            // Every frame both ways is a protobuf `Frame`.
            #expect(call.framesToServer.allSatisfy(Self.isBinary))
            #expect(call.framesToClient.allSatisfy(Self.isBinary))
        default:
            Issue.record("no special case for \(id)")
        }
    }
}
