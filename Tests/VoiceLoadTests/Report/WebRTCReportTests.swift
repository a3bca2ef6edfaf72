import Foundation
import RTP
import TestSupport
import Testing
import WebRTC

@testable import VoiceLoad

@Suite("Reports of WebRTC calls: the connect phases and the agent's RTP streams")
struct WebRTCReportTests {
    private static let phases = WebRTCConnectPhases(signallingUs: 25_000, iceUs: 1_200, dtlsUs: 40_500, dataChannelOpenUs: 9_750)

    /// A stream of `count` packets 20 ms apart, `gap` sequence numbers left out after the first.
    private static func statistics(count: Int, skipping gap: UInt16 = 0) -> RTPReceiveStatistics {
        var statistics = RTPReceiveStatistics(clockRateHz: 48_000)
        for index in 0..<count {
            let sequence = UInt16(index) + (index > 0 ? gap : 0)
            statistics.record(sequenceNumber: sequence, timestamp: UInt32(index) * 960, arrivalNs: UInt64(index) * 20_000_000)
        }
        return statistics
    }

    @Test("sessions.csv: the four phases follow upgrade_ms, the RTP figures follow attempts, all empty for a WebSocket session")
    func csv() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vload-webrtc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let writer = try CSVRowWriter(directory: directory)
        var call = SessionRecord(client: 0, iteration: 0)
        call.connectUs = 80_000
        call.webRTCPhases = Self.phases
        call.attempts = 2
        // Two attempts: a stream of 50 packets with one lost, then one of 10 with a late packet
        // and 2.5 ms of jitter (the session's jitter_ms_max is the larger of the two).
        var second = RTPReceiveCounts(Self.statistics(count: 10))
        second.latePackets = 1
        second.jitterMsMax = 2.5
        call.rtp = RTPReceiveCounts(Self.statistics(count: 50, skipping: 1)) + second
        writer.write(call)
        writer.write(SessionRecord(client: 1, iteration: 0))
        writer.close()
        let lines = try String(contentsOf: directory.appendingPathComponent("sessions.csv"), encoding: .utf8).split(separator: "\n")
        #expect(lines.first?.contains(",upgrade_ms,signalling_ms,ice_ms,dtls_ms,data_channel_open_ms,started_ms,") == true)
        #expect(lines[1].hasPrefix("0,0,completed,,,80.000,,,,,25.000,1.200,40.500,9.750,"))
        #expect(lines[2].hasPrefix("1,0,completed,,,,,,,,,,,,"))
        #expect(lines.first?.contains(",attempts,packets_received,packets_expected,packets_lost,late_packets,jitter_ms_max,noise_bed,") == true)
        #expect(lines[1].hasSuffix(",0,2,60,61,1,1,2.500,,,,,"))
        #expect(lines[2].hasSuffix(",0,1,,,,,,,,,,"))
    }

    @Test("report.html: an RTP table for a run with WebRTC calls, no RTP section without")
    func html() {
        var report = ReportFixtures.emptyReport()
        #expect(!HTMLReport.render(report).contains("id=\"rtp\""))
        var rtp = RTPReceiveCounts(Self.statistics(count: 50, skipping: 2), srtpProfile: .aeadAES128GCM)
        rtp = rtp + RTPReceiveCounts(RTPReceiveStatistics(clockRateHz: 48_000), srtpProfile: .aes128CMHMACSHA1_80)
        rtp.latePackets = 3
        rtp.jitterMsMax = 1.25
        rtp.jitterMsMean = 0.5
        report.rtp = rtp
        let html = HTMLReport.render(report)
        #expect(html.contains("<h2 id=\"rtp\">RTP</h2>"))
        #expect(html.contains("<th scope=\"col\">packets_lost</th>"))
        #expect(html.contains("<th scope=\"col\">srtp_profiles</th>"))
        #expect(
            html.contains(
                "<tr><td>1</td><td>50</td><td>52</td><td>2</td><td>3</td><td>1.250</td><td>0.500</td>"
                    + "<td>SRTP_AEAD_AES_128_GCM × 1, SRTP_AES128_CM_HMAC_SHA1_80 × 1</td></tr>"))
    }

    @Test("the recorder puts each phase in its histogram and sums the streams; the report and its merge carry them")
    func recorderAndReport() throws {
        let recorder = Recorder(startedAt: ReportFixtures.start)
        for index in 0..<2 {
            var session = SessionRecord(client: index, iteration: 0)
            session.webRTCPhases = Self.phases
            session.rtp = RTPReceiveCounts(Self.statistics(count: 50, skipping: UInt16(index)))
            recorder.recordSession(session, at: ReportFixtures.at(1))
        }
        recorder.recordSession(SessionRecord(client: 2, iteration: 0), at: ReportFixtures.at(1))
        let snapshot = recorder.snapshot()
        for metric in [MetricName.signallingMs, .iceMs, .dtlsMs, .dataChannelOpenMs] {
            #expect(snapshot.histograms[metric]?.count == 2, "\(metric)")
        }
        let rtp = try #require(snapshot.rtp)
        #expect(rtp.streams == 2 && rtp.packetsReceived == 100 && rtp.packetsExpected == 101 && rtp.packetsLost == 1)
        #expect(rtp.latePackets == 0 && rtp.jitterMsMax == 0 && rtp.jitterMsMean == 0)
        var report = ReportFixtures.emptyReport()
        report.rtp = rtp
        let json = try JSONSerialization.jsonObject(with: try report.jsonData()) as? [String: Any]
        #expect((json?["rtp"] as? [String: Any])?["packets_lost"] as? Int == 1)
        #expect(try JSONSchemaValidator.reportSchema().violations(of: try report.jsonData()) == [])
        #expect(try ReportMerge.merge([report, report]).rtp?.packetsReceived == 200)
        #expect(try ReportMerge.merge([ReportFixtures.emptyReport(), ReportFixtures.emptyReport()]).rtp == nil)
    }

    @Test("a stream with no packet adds nothing; the mean jitter is weighted by streams")
    func counts() {
        #expect(RTPReceiveCounts(RTPReceiveStatistics(clockRateHz: 48_000)) == RTPReceiveCounts())
        var one = RTPReceiveCounts()
        one.streams = 1
        one.jitterMsMax = 3
        one.jitterMsMean = 3
        var three = RTPReceiveCounts()
        three.streams = 3
        three.jitterMsMax = 1
        three.jitterMsMean = 1
        let sum = one + three
        #expect(sum.streams == 4 && sum.jitterMsMax == 3 && sum.jitterMsMean == 1.5)
    }
}
