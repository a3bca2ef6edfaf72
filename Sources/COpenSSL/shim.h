#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>

// The OpenSSL calls the WebRTC module makes (docs/webrtc.md): HMAC-SHA1 for STUN's
// MESSAGE-INTEGRITY (RFC 8489 §14.5) and DTLS 1.2 with the use_srtp extension (RFC 5764). Macros
// and variadic calls, which Swift cannot make, are wrapped here.

/// HMAC-SHA1 of `count` bytes with `key`; writes 20 bytes to `digest`. Returns 1 on success.
static inline int vload_hmac_sha1(const unsigned char *key, int keyCount, const unsigned char *data, size_t count,
                                  unsigned char *digest) {
    unsigned int digestCount = 0;
    return HMAC(EVP_sha1(), key, keyCount, data, count, digest, &digestCount) != NULL && digestCount == 20;
}

/// A P-256 key and a self-signed certificate for it, valid from a day ago for 30 days (as
/// browsers and aiortc make theirs). Returns 1 on success; the caller frees both.
static inline int vload_dtls_make_identity(EVP_PKEY **keyOut, X509 **certificateOut, long serial) {
    EVP_PKEY *key = EVP_EC_gen("P-256");
    X509 *certificate = X509_new();
    int ok = key != NULL && certificate != NULL
        && X509_set_version(certificate, 2)
        && ASN1_INTEGER_set(X509_get_serialNumber(certificate), serial)
        && X509_gmtime_adj(X509_getm_notBefore(certificate), -86400L)
        && X509_gmtime_adj(X509_getm_notAfter(certificate), 30L * 86400L)
        && X509_NAME_add_entry_by_txt(X509_get_subject_name(certificate), "CN", MBSTRING_ASC,
                                      (const unsigned char *)"vload", -1, -1, 0)
        && X509_set_issuer_name(certificate, X509_get_subject_name(certificate))
        && X509_set_pubkey(certificate, key)
        && X509_sign(certificate, key, EVP_sha256()) > 0;
    if (!ok) {
        EVP_PKEY_free(key);
        X509_free(certificate);
        return 0;
    }
    *keyOut = key;
    *certificateOut = certificate;
    return 1;
}

/// The certificate's sha-256 digest (32 bytes), as a=fingerprint carries it. Returns 1 on success.
static inline int vload_x509_sha256(const X509 *certificate, unsigned char *digest) {
    unsigned int count = 0;
    return X509_digest(certificate, EVP_sha256(), digest, &count) && count == 32;
}

/// Every certificate is accepted during the handshake: the peer's is checked against the SDP
/// answer's fingerprint once it completes (RFC 8122 §5), as WebRTC stacks do.
static inline int vload_dtls_accept_any_certificate(int preverified, X509_STORE_CTX *context) {
    (void)preverified;
    (void)context;
    return 1;
}

/// A DTLS 1.2 context with the identity, a required peer certificate and the SRTP profiles
/// `srtpProfiles` (RFC 5764 §4.1.2: names joined by colons, most preferred first). NULL on failure.
static inline SSL_CTX *vload_dtls_context(EVP_PKEY *key, X509 *certificate, const char *srtpProfiles) {
    SSL_CTX *context = SSL_CTX_new(DTLS_method());
    if (context == NULL) return NULL;
    int ok = SSL_CTX_set_min_proto_version(context, DTLS1_2_VERSION)
        && SSL_CTX_use_certificate(context, certificate)
        && SSL_CTX_use_PrivateKey(context, key)
        && SSL_CTX_check_private_key(context)
        && SSL_CTX_set_tlsext_use_srtp(context, srtpProfiles) == 0;
    if (!ok) {
        SSL_CTX_free(context);
        return NULL;
    }
    SSL_CTX_set_verify(context, SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT, vload_dtls_accept_any_certificate);
    return context;
}

/// A connection on `context` reading from and writing to memory BIOs, with the path MTU set
/// rather than asked of a socket. NULL on failure.
static inline SSL *vload_dtls_connection(SSL_CTX *context, int isClient, long mtuBytes, BIO **readBIO, BIO **writeBIO) {
    SSL *ssl = SSL_new(context);
    BIO *input = BIO_new(BIO_s_mem());
    BIO *output = BIO_new(BIO_s_mem());
    if (ssl == NULL || input == NULL || output == NULL) {
        SSL_free(ssl);
        BIO_free(input);
        BIO_free(output);
        return NULL;
    }
    SSL_set_bio(ssl, input, output);
    SSL_set_options(ssl, SSL_OP_NO_QUERY_MTU);
    DTLS_set_link_mtu(ssl, mtuBytes);
    // The write buffer is sized for the largest record sent, 16 KB by default: after the
    // handshake (fragmented to the MTU anyway) DTLS carries only the data channel's SCTP
    // packets, each smaller than the MTU, so a record never needs more (BENCHMARKS.md, "Memory
    // per WebRTC session": 15 KB less a call).
    SSL_set_max_send_fragment(ssl, mtuBytes);
    if (isClient) SSL_set_connect_state(ssl); else SSL_set_accept_state(ssl);
    *readBIO = input;
    *writeBIO = output;
    return ssl;
}

/// Microseconds until the handshake's retransmission timer fires, 0 when due, -1 when none runs.
static inline long long vload_dtls_timeout_us(SSL *ssl) {
    struct timeval timeout;
    if (!DTLSv1_get_timeout(ssl, &timeout)) return -1;
    return (long long)timeout.tv_sec * 1000000LL + timeout.tv_usec;
}

/// Retransmits the last flight when the timer is due (DTLSv1_handle_timeout).
static inline int vload_dtls_handle_timeout(SSL *ssl) {
    return (int)DTLSv1_handle_timeout(ssl);
}

/// The negotiated SRTP profile's id (1 for SRTP_AES128_CM_SHA1_80, 7 for SRTP_AEAD_AES_128_GCM), 0 when none.
static inline unsigned long vload_dtls_srtp_profile(SSL *ssl) {
    SRTP_PROTECTION_PROFILE *profile = SSL_get_selected_srtp_profile(ssl);
    return profile == NULL ? 0 : profile->id;
}
