import Foundation

extension HTMLReport {
    /// The "RTP" section of a run that made WebRTC calls: the agent's streams summed over the
    /// calls' attempts (report.json's `rtp`, docs/reports.md); nil without WebRTC calls, so
    /// the report has no such section.
    static func rtpSection(_ report: RunReport) -> String? {
        guard let rtp = report.rtp else { return nil }
        return section(
            "RTP",
            table(
                [
                    "streams", "packets_received", "packets_expected", "packets_lost", "late_packets", "jitter_ms_max", "jitter_ms_mean",
                    "srtp_profiles",
                ],
                [
                    [
                        String(rtp.streams), String(rtp.packetsReceived), String(rtp.packetsExpected), String(rtp.packetsLost),
                        String(rtp.latePackets), String(format: "%.3f", rtp.jitterMsMax), String(format: "%.3f", rtp.jitterMsMean),
                        (rtp.srtpProfiles ?? [:]).sorted { $0.key < $1.key }.map { "\($0.key) × \($0.value)" }.joined(separator: ", "),
                    ]
                ],
                caption: "The agent's RTP streams over the calls' attempts (RFC 3550 receive statistics), jitter in milliseconds",
                escape: true
            )
        )
    }
}
