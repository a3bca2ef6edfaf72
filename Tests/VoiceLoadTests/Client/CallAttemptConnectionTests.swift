import Testing

@testable import VoiceLoad

/// The connection as a `CallAttempt` sees it, on synthetic time: frames that arrive before
/// the client has the connection are held and decoded in order once it opens, and the
/// dialect's keep-alive runs on its timer while the connection is open.
@Suite("Call attempt: connection and keep-alive")
struct CallAttemptConnectionTests {
    typealias Script = AttemptScript

    @Test("frames before the open are held, then decoded and handled in order with their arrival instants")
    func framesBeforeOpen() {
        var script = Script()
        #expect(script.attempt.phase == .connecting(held: []))
        #expect(script.frame("welcome", at: 10).isEmpty)
        #expect(script.frame("settings", at: 20).isEmpty)
        let held = [
            CallAttempt.HeldFrame(frame: .text("welcome"), receivedAt: Script.at(10)),
            CallAttempt.HeldFrame(frame: .text("settings"), receivedAt: Script.at(20)),
        ]
        #expect(script.attempt.phase == .connecting(held: held))
        #expect(script.open(at: 5, handedOverMs: 30) == [Script.decoded("welcome", at: 10), Script.decoded("settings", at: 20)])
        #expect(script.attempt.phase == .open(openedAt: Script.at(5)) && script.attempt.openedAt == Script.at(5))
        #expect(script.frame("later", at: 40, handledMs: 41) == [Script.decoded("later", at: 40)])
    }

    @Test("a dialect ready on open is ready at the open instant, before the held frames")
    func readyOnOpen() {
        var script = Script(readySignal: .onOpen)
        _ = script.frame("first", at: 10)
        #expect(script.open(at: 5, handedOverMs: 30) == [.ready(at: Script.at(5)), Script.decoded("first", at: 10)])
        #expect(script.attempt.readyAt == Script.at(5))
    }

    @Test("a connection that ended before it was handed over has its frames handled, but no keep-alive")
    func endedBeforeOpen() {
        var script = Script(keepAlive: KeepAlivePolicy(everyMs: 5_000))
        _ = script.frame("bye", at: 10)
        let closed = SessionFailure(.closedByServer(code: 1000), .close(code: 1000, reason: ""))
        _ = script.attempt.connectionEnded(closed, at: Script.at(15), now: Script.at(15))
        #expect(
            script.attempt.phase == .closedBeforeHandover(held: [CallAttempt.HeldFrame(frame: .text("bye"), receivedAt: Script.at(10))])
        )
        #expect(script.open(at: 5, handedOverMs: 30) == [Script.decoded("bye", at: 10)])
        #expect(script.attempt.phase == .ended(openedAt: Script.at(5)))
        #expect(script.fire(.keepAlive, at: 5_030).isEmpty)
    }

    @Test("keep-alive: sent at the interval while the caller is silent")
    func keepAliveWhileSilent() {
        var script = Script(keepAlive: KeepAlivePolicy(everyMs: 5_000))
        #expect(script.open(at: 0, handedOverMs: 10) == [.schedule(.keepAlive, at: Script.at(5_010))])
        #expect(script.fire(.keepAlive, at: 5_010) == [.send(.keepAlive), .schedule(.keepAlive, at: Script.at(10_010))])
        #expect(script.fire(.keepAlive, at: 10_012) == [.send(.keepAlive), .schedule(.keepAlive, at: Script.at(15_012))])
    }

    @Test("keep-alive: not while the microphone streams, unless the policy says always")
    func keepAliveWhileStreaming() {
        var idleOnly = Script(keepAlive: KeepAlivePolicy(everyMs: 1_000))
        _ = idleOnly.open(at: 0)
        idleOnly.openMicrophone(at: 500)
        #expect(idleOnly.fire(.keepAlive, at: 1_000) == [.schedule(.keepAlive, at: Script.at(2_000))])
        _ = idleOnly.attempt.stopMicrophone()
        #expect(idleOnly.fire(.keepAlive, at: 2_000) == [.send(.keepAlive), .schedule(.keepAlive, at: Script.at(3_000))])

        var always = Script(keepAlive: KeepAlivePolicy(everyMs: 1_000, whileStreaming: true))
        _ = always.open(at: 0)
        always.openMicrophone(at: 500)
        #expect(always.fire(.keepAlive, at: 1_000) == [.send(.keepAlive), .schedule(.keepAlive, at: Script.at(2_000))])
    }

    @Test("keep-alive: none while hanging up, and it stops when the connection or the attempt ends")
    func keepAliveAfterHangUp() {
        var script = Script(keepAlive: KeepAlivePolicy(everyMs: 1_000))
        _ = script.open(at: 0)
        script.hangUp()
        #expect(script.fire(.keepAlive, at: 1_000) == [.schedule(.keepAlive, at: Script.at(2_000))])
        let closed = SessionFailure(.closedByServer(code: 1000), .close(code: 1000, reason: ""))
        _ = script.attempt.connectionEnded(closed, at: Script.at(1_500), now: Script.at(1_500))
        #expect(script.fire(.keepAlive, at: 2_000).isEmpty)

        var ended = Script(keepAlive: KeepAlivePolicy(everyMs: 1_000))
        _ = ended.open(at: 0)
        #expect(ended.attempt.attemptEnded() == [.cancel(.keepAlive)])
        #expect(ended.fire(.keepAlive, at: 1_000).isEmpty)
    }

    @Test("keep-alive: none without a policy, nor with an interval of 0")
    func noKeepAlive() {
        var none = Script()
        #expect(none.open(at: 0).isEmpty)
        #expect(none.fire(.keepAlive, at: 5_000).isEmpty)
        var off = Script(keepAlive: KeepAlivePolicy(everyMs: 0))
        #expect(off.open(at: 0).isEmpty)
        #expect(off.fire(.keepAlive, at: 5_000).isEmpty)
    }
}
