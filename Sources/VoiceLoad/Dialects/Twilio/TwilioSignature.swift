import Foundation

/// Twilio's request signature, `X-Twilio-Signature`: the base64 HMAC-SHA1 of the request's
/// URL (with a POST's parameters appended, sorted; a WebSocket upgrade has none), keyed with
/// the account's auth token. Agent servers that check it reject a stream whose upgrade lacks
/// it; vload signs the exact URL it connects to (docs/conformance.md checks it with the
/// `twilio` package's `RequestValidator`).
enum TwilioSignature {
    static let headerName = "X-Twilio-Signature"

    /// The signature of `url` under `authToken`.
    static func signature(url: String, authToken: String) -> String {
        Data(HMACSHA1.authenticationCode(for: Array(url.utf8), key: Array(authToken.utf8))).base64EncodedString()
    }
}

/// HMAC (RFC 2104) over SHA-1 (FIPS 180-4): all Twilio's signature needs, so vload takes no
/// cryptography package for it. Not for anything secret on vload's side: it signs a test call.
enum HMACSHA1 {
    static let blockBytes = 64

    static func authenticationCode(for message: [UInt8], key: [UInt8]) -> [UInt8] {
        var block = key.count > blockBytes ? digest(key) : key
        block += [UInt8](repeating: 0, count: blockBytes - block.count)
        let inner = digest(block.map { $0 ^ 0x36 } + message)
        return digest(block.map { $0 ^ 0x5C } + inner)
    }

    /// The SHA-1 digest of `message` (20 bytes).
    static func digest(_ message: [UInt8]) -> [UInt8] {
        var state: [UInt32] = [0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0]
        var padded = message + [0x80]
        padded += [UInt8](repeating: 0, count: (56 - padded.count % 64 + 64) % 64)
        let bitCount = UInt64(message.count) * 8
        padded += (0..<8).map { UInt8(truncatingIfNeeded: bitCount >> (56 - 8 * UInt64($0))) }
        var words = [UInt32](repeating: 0, count: 80)
        for chunk in stride(from: 0, to: padded.count, by: 64) {
            for index in 0..<16 {
                let offset = chunk + 4 * index
                words[index] =
                    UInt32(padded[offset]) << 24 | UInt32(padded[offset + 1]) << 16
                    | UInt32(padded[offset + 2]) << 8 | UInt32(padded[offset + 3])
            }
            for index in 16..<80 {
                words[index] = (words[index - 3] ^ words[index - 8] ^ words[index - 14] ^ words[index - 16]).rotatedLeft(by: 1)
            }
            var (a, b, c, d, e) = (state[0], state[1], state[2], state[3], state[4])
            for index in 0..<80 {
                let (f, k): (UInt32, UInt32)
                switch index {
                case 0..<20: (f, k) = ((b & c) | (~b & d), 0x5A82_7999)
                case 20..<40: (f, k) = (b ^ c ^ d, 0x6ED9_EBA1)
                case 40..<60: (f, k) = ((b & c) | (b & d) | (c & d), 0x8F1B_BCDC)
                default: (f, k) = (b ^ c ^ d, 0xCA62_C1D6)
                }
                let next = a.rotatedLeft(by: 5) &+ f &+ e &+ k &+ words[index]
                (e, d, c, b, a) = (d, c, b.rotatedLeft(by: 30), a, next)
            }
            state[0] &+= a
            state[1] &+= b
            state[2] &+= c
            state[3] &+= d
            state[4] &+= e
        }
        return state.flatMap { word in (0..<4).map { UInt8(truncatingIfNeeded: word >> (24 - 8 * UInt32($0))) } }
    }
}

extension UInt32 {
    fileprivate func rotatedLeft(by count: UInt32) -> UInt32 {
        self << count | self >> (32 - count)
    }
}
