import RTP
import WebRTC

/// The agent's RTP streams of a run's WebRTC calls (`rtp` in report.json, docs/reports.md): the
/// sums of each call's RFC 3550 receive statistics (`RTPReceiveStatistics`, docs/webrtc.md)
/// and its interarrival jitter at the call's end. Absent from runs without WebRTC.
package struct RTPReceiveCounts: Sendable, Hashable, Codable {
    /// Calls (call attempts) that received at least one packet.
    package var streams = 0
    package var packetsReceived = 0
    /// From each stream's first and highest extended sequence numbers (RFC 3550 A.3).
    package var packetsExpected = 0
    /// Expected − received: may be negative with duplicates, as RFC 3550 says.
    package var packetsLost = 0
    /// Packets that arrived after a later one.
    package var latePackets = 0
    /// The largest and the mean of the streams' jitter at their end, in ms (RFC 3550 A.8).
    package var jitterMsMax = 0.0
    package var jitterMsMean = 0.0
    /// Call attempts by the SRTP profile their DTLS handshake agreed, under IANA's name for it
    /// (`SRTP_AEAD_AES_128_GCM`, `SRTP_AES128_CM_HMAC_SHA1_80`); nil in a report from a vload
    /// that did not keep it.
    package var srtpProfiles: [String: Int]?

    package init() {}

    enum CodingKeys: String, CodingKey {
        case streams
        case packetsReceived = "packets_received"
        case packetsExpected = "packets_expected"
        case packetsLost = "packets_lost"
        case latePackets = "late_packets"
        case jitterMsMax = "jitter_ms_max"
        case jitterMsMean = "jitter_ms_mean"
        case srtpProfiles = "srtp_profiles"
    }

    /// One stream's figures at its end, and the SRTP profile its call agreed; a stream that
    /// received nothing adds no figures.
    package init(_ statistics: RTPReceiveStatistics, srtpProfile: SRTPProfile? = nil) {
        srtpProfiles = srtpProfile.map { [$0.ianaName: 1] }
        guard statistics.packetsReceived > 0 else { return }
        streams = 1
        packetsReceived = statistics.packetsReceived
        packetsExpected = statistics.packetsExpected
        packetsLost = statistics.packetsLost
        latePackets = statistics.latePackets
        jitterMsMax = statistics.jitterMs
        jitterMsMean = statistics.jitterMs
    }

    /// Sums of both, the mean jitter weighted by streams (a session's attempts, merged reports).
    package static func + (lhs: RTPReceiveCounts, rhs: RTPReceiveCounts) -> RTPReceiveCounts {
        var total = lhs
        total.streams += rhs.streams
        total.packetsReceived += rhs.packetsReceived
        total.packetsExpected += rhs.packetsExpected
        total.packetsLost += rhs.packetsLost
        total.latePackets += rhs.latePackets
        total.jitterMsMax = max(lhs.jitterMsMax, rhs.jitterMsMax)
        if let profiles = rhs.srtpProfiles { total.srtpProfiles = (lhs.srtpProfiles ?? [:]).merging(profiles, uniquingKeysWith: +) }
        total.jitterMsMean =
            total.streams == 0 ? 0 : (lhs.jitterMsMean * Double(lhs.streams) + rhs.jitterMsMean * Double(rhs.streams)) / Double(total.streams)
        return total
    }
}
