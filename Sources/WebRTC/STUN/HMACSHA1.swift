import COpenSSL

/// HMAC-SHA1 (RFC 2104) from OpenSSL's libcrypto, for STUN's MESSAGE-INTEGRITY.
enum HMACSHA1 {
    static let byteCount = 20

    static func authenticationCode(key: [UInt8], message: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: byteCount)
        let succeeded = key.withUnsafeBufferPointer { keyBuffer in
            message.withUnsafeBufferPointer { messageBuffer in
                digest.withUnsafeMutableBufferPointer { digestBuffer in
                    vload_hmac_sha1(
                        keyBuffer.baseAddress, Int32(keyBuffer.count), messageBuffer.baseAddress, messageBuffer.count,
                        digestBuffer.baseAddress)
                }
            }
        }
        // HMAC fails only when libcrypto cannot allocate: nothing vload could go on from.
        precondition(succeeded == 1, "OpenSSL HMAC-SHA1 failed")
        return digest
    }
}
