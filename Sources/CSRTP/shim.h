#include <string.h>
#include <srtp2/srtp.h>

// libsrtp2 for WebRTC media (docs/webrtc.md): one session per direction, keyed from the DTLS
// handshake's exported keying material (RFC 5764 §4.2).

/// A session protecting (outbound) or unprotecting (inbound) every SSRC with the DTLS-SRTP
/// profile `profile` agreed: 7, AEAD_AES_128_GCM (RFC 7714), keyed by 28 bytes, the 16-byte
/// master key then the 12-byte master salt; 1, AES_CM_128_HMAC_SHA1_80 (RFC 3711), keyed by 30
/// bytes, the 16-byte key then the 14-byte salt. A 1,024-packet replay window, as libwebrtc uses.
static inline srtp_err_status_t vload_srtp_create(srtp_t *session, const unsigned char *keyAndSalt, int outbound, int profile) {
    srtp_policy_t policy;
    memset(&policy, 0, sizeof policy);
    if (profile == 7) {
        srtp_crypto_policy_set_aes_gcm_128_16_auth(&policy.rtp);
        srtp_crypto_policy_set_aes_gcm_128_16_auth(&policy.rtcp);
    } else if (profile == 1) {
        srtp_crypto_policy_set_rtp_default(&policy.rtp);
        srtp_crypto_policy_set_rtcp_default(&policy.rtcp);
    } else {
        return srtp_err_status_bad_param;
    }
    policy.ssrc.type = outbound ? ssrc_any_outbound : ssrc_any_inbound;
    policy.key = (unsigned char *)keyAndSalt;
    policy.window_size = 1024;
    policy.next = NULL;
    return srtp_create(session, &policy);
}
