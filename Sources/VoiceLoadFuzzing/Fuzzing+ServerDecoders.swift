import VoiceLoad
import WSCore

extension Fuzzing {
    /// The server dialects the server decoder target chooses from, by registered id.
    static let serverDialects: [(id: String, dialect: any ServerDialect)] = DialectRegistry.ids.map { id in
        do {
            return (id, try DialectRegistry.server(id))
        } catch {
            preconditionFailure("registered dialect \(id) is unknown: \(error)")
        }
    }

    /// The upgrade target the server codecs are made for (Deepgram reads its query).
    static let serverTarget = "/ws?encoding=linear16&sample_rate=16000&interim_results=true&vad_events=true"

    /// What the simulated agent sends after the client's frames, to check that nothing a
    /// client sent (a captured stream id, a session update) breaks the server's frames.
    static let agentOutputs: [AgentOutput] = [
        .connectionOpened(sessionID: "sess-1"), .sessionStarted(sessionID: "sess-1", conversationID: "conv-1"), .ready,
        .userSpeechStarted(audioMs: 120), .userSpeechStopped(audioMs: 900),
        .agentTurnStarted(turnKey: "turn-1", latencyMs: 640), .audio([1, 2, 3, 4, 250, 251]), .agentAudioDone(turnKey: "turn-1"),
        .transcript(TranscriptLine(role: "user", text: "hello \"there\"", isFinal: true)),
        .toolCall(name: "lookup", status: "requested", id: "call-1", arguments: #"{"q":1}"#),
        .speechResult(SpeechResult(text: "hello", isFinal: true, speechFinal: true, startS: 0.5, durationS: 1.25)),
        .utteranceEnd(lastWordEndS: 1.7), .interrupted, .responseCancelled(turnKey: "turn-1"),
        .turnComplete(turnKey: "turn-1"), .error(code: "simulated", message: "simulated"),
        .ended(transcript: [TranscriptLine(role: "agent", text: "bye")]),
    ]

    /// The server decoder target: the frames of a `FuzzFrameSequence`, received in order by one
    /// codec of the chosen server dialect.
    static func serverDecoding(_ payload: [UInt8]) -> FuzzOutcome {
        let (selector, frames) = FuzzFrameSequence.decode(payload)
        let (id, dialect) = serverDialects[selector % serverDialects.count]
        return checkServerDecoding(id: id, dialect: dialect, frames: frames)
    }

    /// Receives `frames` with one codec of `dialect`, then has it frame every agent output and,
    /// when the agent speaks, a chunk of agent audio. Checks: a malformed frame's reason is not empty, audio intents
    /// carry bytes, and every frame the codec then sends is one the client side of the dialect
    /// decodes without a `.malformed` event (JSON text stays JSON whatever the client sent).
    static func checkServerDecoding(id: String, dialect: any ServerDialect, frames: [WireFrame]) -> FuzzOutcome {
        var outcome = FuzzOutcome()
        var codec = dialect.makeCodec(target: serverTarget)
        for frame in frames {
            do {
                for intent in try codec.receive(frame) {
                    if case .audio(let bytes) = intent { outcome.check(!bytes.isEmpty, "\(id) server: an audio intent without bytes") }
                }
            } catch {
                outcome.accepted = false
                if case .malformed(let reason) = error { outcome.check(!reason.isEmpty, "\(id) server: .malformed with an empty reason") }
            }
        }
        var sent: [WireFrame] = []
        for output in agentOutputs { sent += codec.frames(for: output) }
        if dialect.speaks { sent.append(wireFrame(codec.audioFrame(dialect.prepareAudio([9, 8, 7, 6])))) }
        outcome.violations += clientReading(sent, dialectID: id)
        return outcome
    }

    /// How the client side of dialect `dialectID` fails to read what its server sent.
    private static func clientReading(_ frames: [WireFrame], dialectID: String) -> [String] {
        guard let client = clientDialects.first(where: { $0.id == dialectID }) else { return [] }
        var codec = makeCodec(client)
        var violations: [String] = []
        for frame in frames {
            for case .malformed(let reason) in codec.receive(frame).events {
                violations.append("\(dialectID) server sent a frame its client reads as malformed (\(reason)): \(describe(frame))")
            }
        }
        return violations
    }

    /// A frame in a violation message: kind and the start of its text.
    static func describe(_ frame: WireFrame) -> String {
        switch frame {
        case .text(let text): return "text " + String(text.prefix(160)).debugDescription
        case .binary(let bytes): return "binary of \(bytes.count) bytes"
        }
    }
}
