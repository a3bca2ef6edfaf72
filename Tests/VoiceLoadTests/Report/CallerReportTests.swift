import Foundation
import TestSupport
import Testing
import WSCore

@testable import VoiceLoad

@Suite("Callers' draws in sessions.csv and report.json")
struct CallerReportTests {
    private static let variation = CallerVariation(noiseBeds: ["babble", "pink"], snrDb: 10...20, gainDb: -6...6, speakingRate: 0.8...1.2)

    private func report(voices: [CallerVoice]) -> RunReport {
        let recorder = Recorder(callerDraws: CallerDraws(ranges: .init(Self.variation)))
        for (client, voice) in voices.enumerated() {
            recorder.sessionStarted(client: client, at: .now())
            var session = SessionRecord(client: client, iteration: 0)
            session.voice = voice
            recorder.recordSession(session)
        }
        return GateFixtures.report(of: recorder, sessions: voices.count)
    }

    @Test("sessions.csv ends each row with the caller's bed, SNR, offset, gain and rate")
    func csvColumns() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vload-callers-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let writer = try CSVRowWriter(directory: directory)
        var session = SessionRecord(client: 3, iteration: 0)
        session.voice = CallerVoice(noise: .init(bed: "road", snrDb: 12.5, offsetMs: 2_310), gainDb: -3, speakingRate: 0.93)
        writer.write(session)
        session.voice = CallerVoice(noise: nil, gainDb: 1.25, speakingRate: 1.2)
        writer.write(session)
        writer.close()
        let lines = try String(contentsOf: directory.appendingPathComponent("sessions.csv"), encoding: .utf8).split(separator: "\n")
        #expect(lines[1].hasSuffix(",road,12.50,2310,-3.00,0.93"))
        #expect(lines[2].hasSuffix(",0,1,,,,,,,,,1.25,1.20"))
    }

    @Test("report.json holds the ranges and what was drawn; valid, decodable, and summed by merge")
    func reportJSON() throws {
        let voices = (0..<20).map { Self.variation.voice(ofCaller: $0, seed: 3) }
        let report = report(voices: voices)
        let draws = try #require(report.callers)
        #expect(draws.sessions == 20 && draws.noiseBeds.values.reduce(0, +) == 20)
        #expect(draws.speakingRate?.min == voices.map(\.speakingRate).min() && draws.speakingRate?.max == voices.map(\.speakingRate).max())
        #expect(draws.snrDb?.min == voices.compactMap(\.noise?.snrDb).min())
        let data = try report.jsonData()
        #expect(try JSONSchemaValidator.reportSchema().violations(of: data) == [])
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let callers = try #require(object["callers"] as? [String: Any])
        let ranges = try #require(callers["ranges"] as? [String: Any])
        #expect(ranges["noise_beds"] as? [String] == ["babble", "pink"] && ranges["speaking_rate"] as? [Double] == [0.8, 1.2])
        #expect(try RunReport.decode(from: data).callers == draws)
        let merged = try ReportMerge.merge([report, self.report(voices: [CallerVoice(noise: nil, gainDb: 0, speakingRate: 2)])])
        #expect(merged.callers?.sessions == 21 && merged.callers?.noiseBeds["none"] == 1 && merged.callers?.speakingRate?.max == 2)
        #expect(self.report(voices: []).callers?.sessions == 0)
        let line = try #require(SummaryTable.render(report).split(separator: "\n").first { $0.hasPrefix("callers: ") })
        let beds = SummaryTable.countsText(draws.noiseBeds)
        #expect(line.hasPrefix("callers: 20 sessions drawn · noise \(beds) · SNR 1") && line.contains(" dB · rate "), "\(line)")
        #expect(SummaryTable.render(self.report(voices: [])).contains("callers: 0 sessions drawn\n"))
    }
}
