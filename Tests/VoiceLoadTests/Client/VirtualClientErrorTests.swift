import Testing
import WSClient
import WSCore

@testable import VoiceLoad

/// The virtual client against a loopback server that sends a fixed script: which error class
/// each endpoint fault is counted under, and the example it leaves.
@Suite("Virtual client error classes", .timeLimit(.minutes(1)))
struct VirtualClientErrorTests {
    private static let loud = ScriptedDialect.audio(amplitude: 8_000)
    private static let silent = ScriptedDialect.audio(amplitude: 0)

    private func steps(_ target: WaitTarget, timeoutMs: Int = 800) -> [ScenarioStep] {
        [.connect(timeoutMs: 5_000), .wait(WaitStep(target, timeoutMs: timeoutMs)), .hangup(timeoutMs: 500)]
    }

    @Test(
        "agent audio that stops with no end-of-turn event fails the session with missing_turn_end",
        arguments: [
            WaitTarget.agentTurnEnd, .greeting,
        ]
    )
    func missingTurnEnd(target: WaitTarget) async throws {
        let (snapshot, session) = try await runScriptedSession(Array(repeating: Self.loud, count: 5), steps: steps(target), quietMs: 300)
        #expect(session?.outcome == .failed)
        #expect(session?.errorClass == "missing_turn_end")
        #expect(snapshot.errors == ["missing_turn_end": 1])
        #expect(RunReport.Errors.categories(of: snapshot.errors) == ["protocol_violation": 1])
        let detail = try #require(snapshot.errorExamples["missing_turn_end"]?.first?.detail)
        #expect(detail.hasPrefix("agent audio ended "))
        #expect(detail.hasSuffix(" s before the 800 ms wait ran out, no end-of-turn event"))
    }

    @Test("without any agent audio the wait stays a timeout of its step")
    func noAnswerIsATimeout() async throws {
        let (snapshot, session) = try await runScriptedSession([], steps: steps(.agentTurnEnd))
        #expect(session?.errorClass == "timeout_wait_agent_turn_end")
        #expect(snapshot.errors == ["timeout_wait_agent_turn_end": 1])
        #expect(snapshot.errorExamples["timeout_wait_agent_turn_end"]?.first?.detail == "no end of the agent's turn within 800 ms")
    }

    @Test("with on_timeout: continue, a missing end-of-turn event is still counted, and the scenario goes on")
    func missingTurnEndWithContinue() async throws {
        let steps: [ScenarioStep] = [
            .connect(timeoutMs: 5_000), .wait(WaitStep(.agentTurnEnd, timeoutMs: 800, onTimeout: .continue)), .hangup(timeoutMs: 500),
        ]
        let (snapshot, session) = try await runScriptedSession(Array(repeating: Self.loud, count: 5), steps: steps)
        #expect(session?.outcome == .completed)
        #expect(snapshot.errors == ["missing_turn_end": 1])
        #expect(snapshot.stepTimeouts == ["wait_agent_turn_end": 1])
    }

    @Test("a voiced turn that ends by event is no error")
    func voicedTurn() async throws {
        let (snapshot, session) = try await runScriptedSession(
            Array(repeating: Self.loud, count: 5) + [.text("end")],
            steps: steps(.greeting)
        )
        #expect(session?.outcome == .completed)
        #expect(snapshot.errors.isEmpty)
    }

    @Test(
        "a greeting of silence only is a silent_reply, ended by event or by audio gap; the session goes on",
        arguments: [
            TurnEndSignal.event, .audioGap,
        ]
    )
    func silentGreeting(signal: TurnEndSignal) async throws {
        let script = Array(repeating: Self.silent, count: 5) + (signal == .event ? [.text("end")] : [])
        let (snapshot, session) = try await runScriptedSession(
            script,
            steps: steps(.greeting, timeoutMs: 5_000),
            dialect: ScriptedDialect(turnEndSignal: signal),
            quietMs: 300
        )
        #expect(session?.outcome == .completed)
        #expect(snapshot.errors == ["silent_reply": 1])
        #expect(RunReport.Errors.categories(of: snapshot.errors) == ["reply": 1])
        #expect(
            snapshot.errorExamples["silent_reply"]?.first?.detail == "greeting (agent turn 1): 200 ms of audio, none voiced (peak RMS 0.0)"
        )
    }

    @Test("malformed frames and in-band errors are counted, their examples redacted of the plan's secrets")
    func redactedExamples() async throws {
        let script: [WireFrame] = [
            .text(#"{"type":"oops","key":"sk-live-abcdef12"}"# + String(repeating: "x", count: 200)),
            .text("error RATE_LIMITED slow down\nretry, api_key=qk-999888 Bearer sk-live-abcdef12"),
            Self.loud, .text("end"),
        ]
        let (snapshot, session) = try await runScriptedSession(
            script,
            steps: steps(.greeting, timeoutMs: 5_000),
            headers: [HTTPHeaderField(name: "Authorization", value: "Bearer sk-live-abcdef12")],
            query: "?x-api-key=qk-999888&lang=en"
        )
        #expect(session?.outcome == .completed)
        #expect(snapshot.errors == ["malformed_frame": 1, "in_band_error_rate_limited": 1])
        #expect(RunReport.Errors.categories(of: snapshot.errors) == ["protocol_violation": 1, "in_band_error": 1])
        let malformed = try #require(snapshot.errorExamples["malformed_frame"]?.first?.detail)
        #expect(malformed.hasPrefix(#"not a script line (240 bytes): {"type":"oops","key":"***"}xxx"#))
        #expect(malformed.count == "not a script line (240 bytes): ".count + 80)  // the frame's first 80 characters
        let inBand = try #require(snapshot.errorExamples["in_band_error_rate_limited"]?.first?.detail)
        #expect(inBand == "RATE_LIMITED: slow down retry, api_key=*** ***")
    }

    @Test("connect errors map to their classes and examples")
    func connectErrorMapping() {
        let cases: [(WebSocketConnectError, String, ErrorEvidence)] = [
            (.connectionRefused("127.0.0.1:9: refused"), "connect_refused", .text("127.0.0.1:9: refused")),
            (.dnsFailed("nowhere:80"), "dns_failed", .text("nowhere:80")),
            (.connectFailed("reset"), "connect_failed", .text("reset")),
            (.tlsFailed("bad certificate"), "tls_failed", .text("bad certificate")),
            (.tlsUntrustedCertificate("unknown CA"), "tls_untrusted_certificate", .text("unknown CA")),
            (.tlsHostnameMismatch("not example.com"), "tls_hostname_mismatch", .text("not example.com")),
            (.upgradeRejected(status: 429, body: "slow down"), "upgrade_rejected_429", .httpStatus(429, body: "slow down")),
            (.timedOut, "timeout_connect", .text("no WebSocket open (TCP, TLS and upgrade) within 750 ms")),
            (.invalidUpgradeResponse("no Upgrade header"), "invalid_upgrade", .text("no Upgrade header")),
        ]
        for (error, name, evidence) in cases {
            let failure = VirtualClient.failure(of: error, timeoutMs: 750)
            #expect(failure.errorClass.name == name)
            #expect(failure.evidence == evidence)
        }
    }

    @Test("a failed connection maps to frame_too_large, malformed_frame or connection_lost")
    func connectionFailureMapping() {
        #expect(VirtualClient.errorClass(of: WebSocketFailure(.frameTooLarge, "big")) == .frameTooLarge)
        #expect(VirtualClient.errorClass(of: WebSocketFailure(.protocolViolation, "bad opcode")) == .malformedFrame)
        #expect(VirtualClient.errorClass(of: WebSocketFailure(.io, "reset by peer")) == .connectionLost)
    }
}
