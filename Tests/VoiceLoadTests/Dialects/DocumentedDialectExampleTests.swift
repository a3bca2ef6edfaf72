import Foundation
import Testing
import WSCore

@testable import VoiceLoad

/// The two worked examples of docs/custom-dialects.md (`docs/examples/json-agent.yaml` and
/// `docs/examples/binary-agent.yaml`): each loads and validates with the dialect loader, says
/// what the page says of it, and turns literal frames of its made-up protocol into the events
/// and replies the page describes; the captures the page replays have no frame a rule misses
/// but the one it leaves unknown on purpose.
@Suite("Custom dialect: the documented examples")
struct DocumentedDialectExampleTests {
    static let examples: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { url.deleteLastPathComponent() }
        return url.appendingPathComponent("docs/examples")
    }()

    static let environment = ["JSON_AGENT_API_KEY": "test-key"]

    static func load(_ name: String) throws -> CustomDialect {
        try CustomDialect.load(path: examples.appendingPathComponent(name).path, environment: environment)
    }

    static func text(_ json: String) -> WireFrame { .text(json) }

    // MARK: json-agent

    @Test func jsonAgentLoads() throws {
        let dialect = try Self.load("json-agent.yaml")
        #expect(dialect.id == "json-agent")
        #expect(dialect.inputFormat == .pcm16(16_000))
        #expect(dialect.outputFormat == .pcm16(24_000))
        #expect(dialect.defaultFrameMs == 20)
        #expect(dialect.readySignal == .event)
        #expect(dialect.turnEndSignal == .event)
        #expect(dialect.repliesWithAudio)
        #expect(dialect.headers.map(\.0) == ["Authorization"])
        #expect(dialect.headers.map(\.1) == ["Bearer test-key"])
        #expect(dialect.subprotocols == ["json-agent.v1"])
        #expect(dialect.keepAlive == KeepAlivePolicy(everyMs: 15_000, whileStreaming: false))
    }

    @Test func jsonAgentNeedsItsKeyAtLoad() {
        let path = Self.examples.appendingPathComponent("json-agent.yaml").path
        #expect(throws: CustomDialectError.self) { try CustomDialect.load(path: path, environment: [:]) }
        do {
            _ = try CustomDialect.load(path: path, environment: [:])
        } catch {
            #expect(error.message.contains("environment variable 'JSON_AGENT_API_KEY' is not set"), "\(error)")
        }
    }

    @Test func jsonAgentSends() throws {
        let dialect = try Self.load("json-agent.yaml")
        var codec = dialect.makeCodec(parameters: ["voice": .string("ada")])
        let open = try #require(DialectTestSupport.json(codec.framesOnOpen().first))
        guard case .object(let start) = open else {
            Issue.record("session.start is not an object")
            return
        }
        #expect(start["type"] == .string("session.start"))
        #expect(start["config"] == .object(["voice": .string("ada")]))
        if case .string(let requestID)? = start["request_id"] { #expect(requestID.count == 36) } else { Issue.record("no request_id") }

        let twentyMs = [UInt8](repeating: 0, count: 640)
        let first = codec.frames(for: .audio(twentyMs)).first
        let second = codec.frames(for: .audio(twentyMs)).first
        #expect(
            DialectTestSupport.json(first)
                == .object([
                    "type": .string("audio.append"), "seq": .number(1), "ts_ms": .number(0),
                    "audio": .string(Data(twentyMs).base64EncodedString()),
                ])
        )
        guard case .object(let next)? = DialectTestSupport.json(second) else {
            Issue.record("no second audio frame")
            return
        }
        #expect(next["seq"] == .number(2) && next["ts_ms"] == .number(20), "the second 20 ms frame starts at 20 ms")

        // The interrupt names the session the welcome message gave.
        _ = codec.receive(Self.text(#"{"type":"welcome","session":{"id":"s-42","region":"eu"}}"#))
        #expect(
            DialectTestSupport.json(codec.frames(for: .interrupt).first)
                == .object(["type": .string("response.cancel"), "session_id": .string("s-42")])
        )
        #expect(DialectTestSupport.json(codec.frames(for: .stop).first) == .object(["type": .string("session.end")]))
        #expect(
            DialectTestSupport.json(codec.frames(for: .text("hi")).first)
                == .object(["type": .string("text"), "text": .string("hi")])
        )
    }

    @Test func jsonAgentReceives() throws {
        let dialect = try Self.load("json-agent.yaml")
        var codec = dialect.makeCodec(parameters: [:])
        func events(_ json: String) -> [NormalizedEvent] { codec.receive(Self.text(json)).events }

        #expect(
            events(#"{"type":"welcome","session":{"id":"s-42","region":"eu"}}"#)
                == [.sessionStarted(ids: ["session_id": "s-42", "region": "eu"])]
        )
        #expect(events(#"{"type":"ready"}"#) == [.sessionReady])
        #expect(events(#"{"type":"response.start","response_id":"r1"}"#) == [.agentSpeechStarted(turnKey: "r1")])
        let pcm: [UInt8] = Array(0..<64)
        #expect(
            events(#"{"type":"response.audio","response_id":"r1","audio":"\#(Data(pcm).base64EncodedString())"}"#)
                == [.agentAudio(AgentAudioChunk(audio: pcm, format: .pcm16(24_000), turnKey: "r1"))]
        )
        #expect(
            events(#"{"type":"transcript","role":"user","text":"hello","final":false}"#)
                == [.transcript(role: "user", text: "hello", isFinal: false)]
        )
        #expect(events(#"{"type":"transcript","text":"hi"}"#) == [.transcript(role: "unknown", text: "hi", isFinal: true)])
        #expect(events(#"{"type":"response.end","response_id":"r1","reason":"completed"}"#) == [.turnComplete(turnKey: "r1")])
        #expect(events(#"{"type":"vad","state":"start"}"#) == [.userSpeechStarted])
        #expect(events(#"{"type":"vad","state":"stop"}"#) == [.userSpeechStopped])
        #expect(events(#"{"type":"response.interrupted","response_id":"r2"}"#) == [.agentInterrupted])
        #expect(events(#"{"type":"response.end","response_id":"r2","reason":"cancelled"}"#) == [.turnComplete(turnKey: "r2")])
        #expect(events(#"{"type":"tool.call","name":"get_weather"}"#) == [.toolCall(name: "get_weather", status: "requested")])
        #expect(
            events(#"{"type":"error","error":{"code":"rate_limited","message":"slow down"}}"#)
                == [.error(code: "rate_limited", message: "slow down", fatal: false)]
        )
        #expect(events(#"{"type":"error","error":{"fatal":true}}"#) == [.error(code: nil, message: "no message", fatal: true)])
        #expect(events(#"{"type":"session.closed","reason":"idle"}"#) == [.sessionEnded(reason: "idle")])

        let ping = codec.receive(Self.text(#"{"type":"ping","id":7}"#))
        #expect(ping.events == [])
        #expect(ping.replies == [CodecReply(.text(#"{"type":"pong","id":7}"#), timing: .immediately)])

        #expect(events(#"{"type":"usage","tokens":118}"#) == [], "ignored")
        #expect(events(#"{"type":"debug.trace"}"#) == [], "ignored by prefix")
        #expect(events(#"{"type":"usage"}"#) == [.unknown(type: "usage")], "the ignore rule wants tokens")
        #expect(events(#"{"type":"response.end","reason":"timeout"}"#) == [.unknown(type: "response.end")])
        #expect(events(#"{"type":"surprise"}"#) == [.unknown(type: "surprise")])
        #expect(CustomDialectTestSupport.normalized(events(#"{"kind":"ready"}"#)) == [.malformed(reason: "")], "no $.type")
    }

    // MARK: binary-agent

    @Test func binaryAgentLoads() throws {
        let dialect = try Self.load("binary-agent.yaml")
        #expect(dialect.id == "binary-agent")
        #expect(dialect.inputFormat == .mulaw8k)
        #expect(dialect.outputFormat == .mulaw8k)
        #expect(dialect.defaultFrameMs == 20)
        #expect(dialect.readySignal == .onOpen)
        #expect(dialect.turnEndSignal == .audioGap)
        #expect(dialect.headers.isEmpty)
        #expect(dialect.keepAlive == nil)
    }

    @Test func binaryAgentSends() throws {
        let dialect = try Self.load("binary-agent.yaml")
        var codec = dialect.makeCodec(parameters: ["from": .string("+15550100"), "to": .string("+15550199")])
        let open = try #require(DialectTestSupport.json(codec.framesOnOpen().first))
        guard case .object(let message) = open, case .string(let callID)? = message["call_id"] else {
            Issue.record("open has no call_id")
            return
        }
        #expect(message["from"] == .string("+15550100") && message["to"] == .string("+15550199"))
        #expect(callID.hasPrefix("call-") && callID.count == 13 && callID.dropFirst(5).allSatisfy(\.isNumber))
        #expect(codec.frames(for: .audio([0xFF, 0x7F])) == [.binary([0xFF, 0x7F])])
        #expect(CustomDialectTestSupport.wireFrame(codec.audioFrame(dialect.prepareAudio([1, 2, 3]))) == .binary([1, 2, 3]))
        #expect(codec.frames(for: .interrupt) == [])
        #expect(DialectTestSupport.json(codec.frames(for: .stop).first) == .object(["op": .string("hangup")]))
    }

    @Test func binaryAgentReceives() throws {
        let dialect = try Self.load("binary-agent.yaml")
        var codec = dialect.makeCodec(parameters: [:])
        func events(_ json: String) -> [NormalizedEvent] { codec.receive(Self.text(json)).events }

        let mulaw = [UInt8](repeating: 0xFF, count: 160)
        #expect(codec.receive(.binary(mulaw)).events == [.agentAudio(AgentAudioChunk(audio: mulaw, format: .mulaw8k))])
        #expect(codec.receive(.binary(Array(#"{"op":"flush"}"#.utf8))).events.count == 1, "binary frames are audio, never JSON")
        #expect(events(#"{"op":"opened","call_id":"call-1"}"#) == [.sessionStarted(ids: ["call_id": "call-1"])])

        let mark = codec.receive(Self.text(#"{"op":"mark","name":"greeting-end"}"#))
        #expect(mark.events == [])
        #expect(mark.replies == [CodecReply(.text(#"{"op":"played","name":"greeting-end"}"#), timing: .whenPlayedOut)])
        let flush = codec.receive(Self.text(#"{"op":"flush"}"#))
        #expect(flush.events == [.agentInterrupted])
        #expect(flush.replies == [CodecReply(.text(#"{"op":"flushed"}"#), timing: .immediately)])

        #expect(events(#"{"op":"caption","text":"Welcome."}"#) == [.transcript(role: "agent", text: "Welcome.", isFinal: true)])
        #expect(events(#"{"op":"caption","text":""}"#) == [.unknown(type: "caption")], "truthy: an empty caption is no transcript")
        #expect(events(#"{"op":"error","message":"down","fatal":true}"#) == [.error(code: "bridge_error", message: "down", fatal: true)])
        #expect(
            events(#"{"op":"warning","severity":"critical","code":"jitter","message":"loss"}"#)
                == [.error(code: "jitter", message: "loss", fatal: false)]
        )
        #expect(events(#"{"op":"warning","severity":"low"}"#) == [.unknown(type: "warning")])
        #expect(events(#"{"op":"stats","jitter_ms":3}"#) == [])
        #expect(events(#"{"op":"closed","reason":"hangup"}"#) == [.sessionEnded(reason: "hangup")])
    }

    // MARK: the captures the page replays

    @Test(arguments: [("json-agent.yaml", "json-agent-capture.jsonl", 1), ("binary-agent.yaml", "binary-agent-capture.jsonl", 0)])
    func capturesReplay(dialectFile: String, capture: String, unknown: Int) throws {
        let dialect = try Self.load(dialectFile)
        var codec = dialect.makeCodec(parameters: [:])
        let lines = try String(contentsOf: Self.examples.appendingPathComponent(capture), encoding: .utf8)
            .split(separator: "\n").filter { !$0.isEmpty }
        #expect(lines.count >= 8)
        var unknownFrames = 0
        for line in lines {
            let object = try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String])
            let frame: WireFrame
            if let text = object["text"] {
                frame = .text(text)
            } else {
                frame = .binary([UInt8](try #require(Data(base64Encoded: object["binary"] ?? ""))))
            }
            let events = codec.receive(frame).events
            for event in events {
                if case .malformed = event { Issue.record("\(capture): malformed \(line)") }
                if case .unknown = event { unknownFrames += 1 }
            }
        }
        #expect(unknownFrames == unknown)
    }
}
