import Foundation
import WebRTC

/// `--srtp-profiles`: the SRTP profiles a run's WebRTC calls offer in DTLS's use_srtp, most
/// preferred first (docs/webrtc.md, "DTLS"). vload offers GCM then AES_CM unless told; a list
/// narrows or reorders that, to call as a stack without GCM does, or to prefer AES_CM as
/// libwebrtc's defaults do.
package enum SRTPProfileList {
    /// Comma-separated names, each a profile's IANA, OpenSSL or SDES name (`SRTPProfile.names`),
    /// in any case. An unknown name, a repeated profile or an empty list is a one-line error
    /// naming `option` (`--sim-srtp-profiles` for the simulator's answerer).
    package static func parse(_ text: String, option: String = "--srtp-profiles") throws(InputError) -> [SRTPProfile] {
        var profiles: [SRTPProfile] = []
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            let name = item.trimmingCharacters(in: .whitespaces).uppercased()
            guard let profile = SRTPProfile.allCases.first(where: { $0.names.contains(name) }) else {
                throw InputError(
                    "\(option): '\(item.trimmingCharacters(in: .whitespaces))' is not an SRTP profile vload offers "
                        + "(SRTP_AEAD_AES_128_GCM or SRTP_AES128_CM_HMAC_SHA1_80, comma-separated, most preferred first)")
            }
            guard !profiles.contains(profile) else { throw InputError("\(option) names \(profile.ianaName) twice") }
            profiles.append(profile)
        }
        return profiles
    }
}
