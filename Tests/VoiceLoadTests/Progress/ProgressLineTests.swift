import Testing

@testable import VoiceLoad

@Suite("Progress line")
struct ProgressLineTests {
    private let figures = LiveFigures(
        elapsedMs: 12_040,
        activeSessions: 10,
        sessionsStarted: 50,
        sessionsCompleted: 39,
        sessionsFailed: 1,
        turnsCompleted: 38,
        errorsByClass: ["connect_failed": 1, "timeout_ready": 2],
        framesSent: 9_000,
        firstAudioP50Ms: 700.44,
        firstAudioP95Ms: 701.2,
        sendLagP99Ms: 1.83
    )

    @Test("log line of a count-bounded run: greppable key=value fields")
    func logBySessions() {
        #expect(
            ProgressLine.log(figures, total: .sessions(50)) == "progress t=12.0s active=10 sessions=40/50 failed=1 turns=38 errors=3 "
                + "first_audio_p50=700.4ms first_audio_p95=701.2ms send_lag_p99=1.8ms"
        )
    }

    @Test("an open model's dropped starts appear once there are any")
    func droppedStarts() {
        var dropped = LiveFigures(elapsedMs: 9_000, activeSessions: 5)
        dropped.droppedStarts = 55
        #expect(
            ProgressLine.log(dropped, total: .durationMs(30_000))
                == "progress t=9.0s/30.0s active=5 sessions=0 failed=0 turns=0 errors=0 dropped=55 "
                + "first_audio_p50=n/a first_audio_p95=n/a send_lag_p99=n/a"
        )
        #expect(ProgressLine.terminal(dropped, total: .durationMs(30_000), width: 200).contains("errors 0  dropped 55"))
    }

    @Test("log line of a time-bounded run: elapsed over the duration; n/a for no latency")
    func logByDuration() {
        var empty = LiveFigures(elapsedMs: 9_000, activeSessions: 3)
        empty.sessionsCompleted = 2
        #expect(
            ProgressLine.log(empty, total: .durationMs(30_000)) == "progress t=9.0s/30.0s active=3 sessions=2 failed=0 turns=0 errors=0 "
                + "first_audio_p50=n/a first_audio_p95=n/a send_lag_p99=n/a"
        )
    }

    @Test("terminal line of a count-bounded run: the bar at 40/50 sessions")
    func terminalBySessions() {
        #expect(
            ProgressLine.terminal(figures, total: .sessions(50), width: 200)
                == "[████████████████░░░░]  80%  40/50 sessions (1 failed)  12.0s  active 10  turns 38  errors 3  "
                + "first audio p50 700.4 ms p95 701.2 ms  send lag p99 1.8 ms"
        )
    }

    @Test("terminal line of a time-bounded run: elapsed/total as a clock, the bar full past the end")
    func terminalByDuration() {
        let line = ProgressLine.terminal(figures, total: .durationMs(120_000), width: 200)
        #expect(line.hasPrefix("[██░░░░░░░░░░░░░░░░░░]  10%  12.0s/2m00s  active 10  sessions 40 (1 failed)  turns 38"))
        var late = figures
        late.elapsedMs = 3_725_000
        let over = ProgressLine.terminal(late, total: .durationMs(3_600_000), width: 200)
        #expect(over.hasPrefix("[████████████████████] 100%  1h02m05s/1h00m00s  "))
    }

    @Test("on a narrow terminal the trailing parts are left out whole, so the line never wraps")
    func terminalWidth() {
        #expect(ProgressLine.terminal(figures, total: .sessions(50), width: 60) == "[████████████████░░░░]  80%  40/50 sessions (1 failed)")
        #expect(ProgressLine.terminal(figures, total: .sessions(50), width: 40) == "[████████████████░░░░]  80%")
        #expect(ProgressLine.terminal(figures, total: .sessions(50), width: 10) == "[████████")
    }

    @Test("off a terminal: a line every 5 s of the run and one at the end")
    func logPrinter() {
        var printer = ProgressPrinter(mode: .log(intervalMs: 5_000), total: .sessions(50))
        var lines: [String] = []
        for tick in 1...48 {  // 250 ms ticks up to 12 s
            if let text = printer.tick(LiveFigures(elapsedMs: Double(tick * 250))) { lines.append(text) }
        }
        #expect(lines.map { $0.split(separator: " ")[1] } == ["t=5.0s", "t=10.0s"])
        #expect(lines.allSatisfy { $0.hasPrefix("progress ") && $0.hasSuffix("\n") })
        #expect(printer.finish(LiveFigures(elapsedMs: 12_100)).hasPrefix("progress t=12.1s "))
    }

    @Test("a late tick prints once and the next line comes an interval after the schedule, not after the tick")
    func logPrinterLateTick() {
        var printer = ProgressPrinter(mode: .log(intervalMs: 5_000), total: .sessions(1))
        #expect(printer.tick(LiveFigures(elapsedMs: 11_000)) != nil)
        #expect(printer.tick(LiveFigures(elapsedMs: 14_000)) == nil)
        #expect(printer.tick(LiveFigures(elapsedMs: 15_000)) != nil)
    }

    @Test("on a terminal: every tick redraws the line in place; the end closes it with a newline")
    func terminalPrinter() {
        var printer = ProgressPrinter(mode: .terminal(width: 200), total: .sessions(50))
        let text = printer.tick(figures)
        #expect(text == "\r\u{1B}[2K" + ProgressLine.terminal(figures, total: .sessions(50), width: 200))
        #expect(printer.finish(figures) == (text ?? "") + "\n")
    }
}
