import Foundation
import Testing
import VoiceLoad

/// Ctrl-C halfway through a run of the `vload` binary against its built-in simulator.
@Suite("End to end: an interrupted run", .serialized)
struct InterruptRunTests {
    /// The data rows of a CSV file (header left out); none while it does not exist.
    private func rows(_ file: URL) -> [[Substring]] {
        guard let text = try? String(contentsOf: file, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false) }
    }

    @Test("SIGINT mid-run: exit 130, a valid report.json with interrupted true, sessions wound down, every completed turn counted")
    func sigint() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vload-interrupt-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        // Starts spread over 2 s: with all 20 in lockstep, the first turn on disk meant every
        // session was hanging up (a hang-up is not interrupted) and none had started its next, so
        // a SIGINT then found nothing to wind down (seen about once in nine runs).
        let process = try VLoadProcess(
            [
                "run", "--scenario", ShortCall.scenarioPath, "--clients", "20", "--ramp-up", "2s", "--iterations", "3", "--quiet",
                "--out", directory.path,
            ] + ShortCall.simulatorArguments
        )
        let turnsFile = directory.appendingPathComponent("turns.csv")
        // Until the first turns are on disk (a bound on the wait, not a measurement).
        let giveUpAt = Date().addingTimeInterval(120)
        while rows(turnsFile).isEmpty, process.isRunning, Date() < giveUpAt {
            try await Task.sleep(for: .milliseconds(50))
        }
        let sawTurns = !rows(turnsFile).isEmpty
        if process.isRunning { process.send(signal: SIGINT) }
        let outcome = process.finish()
        #expect(sawTurns, "no turn reached turns.csv: \(outcome.stdout)\n\(outcome.stderr)")
        #expect(outcome.status == 130, "\(outcome.stdout)\n\(outcome.stderr)")
        #expect(outcome.stdout.contains("INTERRUPTED by SIGINT after"))
        #expect(outcome.stderr.contains("SIGINT: no new sessions"))

        #expect(try schemaViolations(ofReportIn: directory) == [])
        let report = try RunReport.decode(from: Data(contentsOf: directory.appendingPathComponent("report.json")))
        #expect(report.interrupted && report.interruptedBy == .sigint)
        #expect((report.sessions.interrupted ?? 0) > 0)
        #expect(report.sessions.started < 60)  // it stopped starting sessions
        #expect(report.sessions.started == report.sessions.completed + report.sessions.failed + (report.sessions.interrupted ?? 0))
        // Every finished turn is on disk and counted: the completed rows are the report's completed turns.
        let turns = rows(turnsFile)
        let outcomeColumn = 4
        let completedRows = turns.filter { $0.count > outcomeColumn && $0[outcomeColumn] == "completed" }.count
        #expect(completedRows > 0)
        #expect(report.turns["completed"] == completedRows)
        #expect(turns.count == report.turns.values.reduce(0, +))
        let sessions = rows(directory.appendingPathComponent("sessions.csv"))
        #expect(sessions.count == report.sessions.started)
        #expect(sessions.filter { $0.count > 2 && $0[2] == "interrupted" }.count == report.sessions.interrupted)
    }

    @Test("SIGKILL mid-run: every row already in turns.csv and sessions.csv is whole")
    func sigkill() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vload-kill-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let process = try VLoadProcess(
            [
                "run", "--scenario", ShortCall.scenarioPath, "--clients", "20", "--iterations", "3", "--quiet", "--out", directory.path,
            ] + ShortCall.simulatorArguments
        )
        let turnsFile = directory.appendingPathComponent("turns.csv")
        let sessionsFile = directory.appendingPathComponent("sessions.csv")
        let giveUpAt = Date().addingTimeInterval(120)
        // A session's row follows its last turn's once its reply has played out (the prebuffer
        // included): kill once both files have rows to check.
        while rows(turnsFile).count < 5 || rows(sessionsFile).isEmpty, process.isRunning, Date() < giveUpAt {
            try await Task.sleep(for: .milliseconds(50))
        }
        if process.isRunning { process.send(signal: SIGKILL) }
        let outcome = process.finish()
        #expect(outcome.status == SIGKILL, "\(outcome.stdout)\n\(outcome.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("report.json").path))
        for (name, minimum) in [("turns.csv", 5), ("sessions.csv", 1)] {
            let text = try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
            #expect(text.hasSuffix("\n"), "\(name) ends in a partial row")
            let lines = text.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).count }
            #expect(lines.count - 1 >= minimum, "\(name): \(lines.count - 1) rows")
            #expect(Set(lines).count == 1, "\(name): rows of different widths \(Set(lines))")
        }
    }
}
