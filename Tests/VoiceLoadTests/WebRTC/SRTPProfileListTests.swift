import Foundation
import RTP
import Testing
import WebRTC

@testable import VoiceLoad

/// `--srtp-profiles`: the names it takes, the one-line errors, where it applies, and how
/// report.json counts the profiles the calls agreed.
@Suite("WebRTC: --srtp-profiles and the agreed profiles' count")
struct SRTPProfileListTests {
    @Test("IANA's, OpenSSL's and SDES's names, in any case and order, with spaces")
    func names() throws {
        #expect(try SRTPProfileList.parse("SRTP_AEAD_AES_128_GCM,SRTP_AES128_CM_HMAC_SHA1_80") == [.aeadAES128GCM, .aes128CMHMACSHA1_80])
        #expect(try SRTPProfileList.parse("srtp_aes128_cm_sha1_80") == [.aes128CMHMACSHA1_80])
        #expect(try SRTPProfileList.parse("AES_CM_128_HMAC_SHA1_80, aead_aes_128_gcm") == [.aes128CMHMACSHA1_80, .aeadAES128GCM])
        for profile in SRTPProfile.allCases {
            #expect(try SRTPProfileList.parse(profile.ianaName) == [profile])
            #expect(try SRTPProfileList.parse(profile.description) == [profile], "OpenSSL's name \(profile)")
        }
    }

    @Test(
        "an unknown name, a repeated profile or an empty item is one line naming it",
        arguments: [
            ("SRTP_AEAD_AES_256_GCM", "'SRTP_AEAD_AES_256_GCM' is not an SRTP profile vload offers"),
            ("gcm", "'gcm' is not an SRTP profile"),
            ("", "'' is not an SRTP profile"),
            ("SRTP_AEAD_AES_128_GCM,", "'' is not an SRTP profile"),
            ("AEAD_AES_128_GCM,SRTP_AEAD_AES_128_GCM", "--srtp-profiles names SRTP_AEAD_AES_128_GCM twice"),
        ])
    func refused(text: String, message: String) {
        #expect {
            try SRTPProfileList.parse(text)
        } throws: { error in
            guard let error = error as? InputError else { return false }
            return error.message.contains(message) && !error.message.contains("\n")
        }
    }

    @Test("a WebRTC dialect's calls offer the list; a WebSocket dialect refuses it")
    func appliesToWebRTCCalls() throws {
        let scenario = try ScenarioLoader.load(path: repositoryRoot() + "/scenarios/greeting.yaml")
        let plan = try SessionPlanBuilder.build(
            scenario: scenario, dialect: try DialectRegistry.client("pipecat-webrtc"), url: "http://127.0.0.1:9", token: nil, frameMs: nil,
            srtpProfiles: "SRTP_AES128_CM_HMAC_SHA1_80")
        guard case .webRTC(let target) = plan.target else {
            Issue.record("not a WebRTC target: \(plan.target)")
            return
        }
        #expect(target.identity.srtpProfiles == [.aes128CMHMACSHA1_80])
        let unchanged = try SessionPlanBuilder.build(
            scenario: scenario, dialect: try DialectRegistry.client("pipecat-webrtc"), url: "http://127.0.0.1:9", token: nil, frameMs: nil)
        if case .webRTC(let target) = unchanged.target { #expect(target.identity.srtpProfiles == SRTPProfile.offered) }
        #expect {
            try SessionPlanBuilder.build(
                scenario: scenario, dialect: try DialectRegistry.client("openai-realtime"), url: "ws://127.0.0.1:9", token: nil, frameMs: nil,
                srtpProfiles: "SRTP_AEAD_AES_128_GCM")
        } throws: { error in
            (error as? InputError)?.message.contains("--srtp-profiles applies to a WebRTC dialect's calls") == true
        }
    }

    @Test("report.json's rtp counts the calls by the profile agreed, summed over calls, absent in older reports")
    func counted() throws {
        var statistics = RTPReceiveStatistics(clockRateHz: 48_000)
        statistics.record(sequenceNumber: 1, timestamp: 960, arrivalNs: 1_000_000)
        let gcm = RTPReceiveCounts(statistics, srtpProfile: .aeadAES128GCM)
        let cm = RTPReceiveCounts(RTPReceiveStatistics(clockRateHz: 48_000), srtpProfile: .aes128CMHMACSHA1_80)
        let total = gcm + gcm + cm + RTPReceiveCounts()
        #expect(total.srtpProfiles == ["SRTP_AEAD_AES_128_GCM": 2, "SRTP_AES128_CM_HMAC_SHA1_80": 1])
        #expect(total.streams == 2, "a call that received nothing is no stream, but its profile counts")
        let json = String(decoding: try JSONEncoder().encode(total), as: UTF8.self)
        #expect(json.contains("\"srtp_profiles\""))
        let older = Data(
            #"{"streams":1,"packets_received":1,"packets_expected":1,"packets_lost":0,"late_packets":0,"jitter_ms_max":0,"jitter_ms_mean":0}"#.utf8)
        let decoded = try JSONDecoder().decode(RTPReceiveCounts.self, from: older)
        #expect(decoded.srtpProfiles == nil && decoded.streams == 1)
        #expect(!String(decoding: try JSONEncoder().encode(decoded), as: UTF8.self).contains("srtp_profiles"))
    }
}
