/// Standard base64 (RFC 4648 §4, padded) straight to bytes: the audio of every JSON dialect's
/// frames passes through it, both ways, so it decodes four characters at a time through a
/// table, without an intermediate `Data`. Accepts exactly what a padded standard encoder
/// writes (length a multiple of 4, `=` only at the end); anything else is nil.
package enum Base64Decoder {
    /// The bytes `text` encodes, or nil when it is not padded standard base64.
    package static func decode(_ text: String) -> [UInt8]? {
        var text = text
        return text.withUTF8 { decode($0) }
    }

    package static func decode(_ characters: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        let count = characters.count
        guard count % 4 == 0 else { return nil }
        guard count > 0 else { return [] }
        let padding = characters[count - 1] == UInt8(ascii: "=") ? (characters[count - 2] == UInt8(ascii: "=") ? 2 : 1) : 0
        let byteCount = count / 4 * 3 - padding
        var failed = false
        let bytes = [UInt8](unsafeUninitializedCapacity: byteCount) { output, initialized in
            table.withUnsafeBufferPointer { table in
                // Every group but the last: four characters, three bytes, no padding.
                var out = 0
                var index = 0
                var invalid: UInt8 = 0
                while index < count - 4 {
                    let a = table[Int(characters[index])]
                    let b = table[Int(characters[index + 1])]
                    let c = table[Int(characters[index + 2])]
                    let d = table[Int(characters[index + 3])]
                    invalid |= a | b | c | d
                    output[out] = a << 2 | b >> 4
                    output[out + 1] = b << 4 | c >> 2
                    output[out + 2] = c << 6 | d
                    out += 3
                    index += 4
                }
                // The last group, with its padding.
                let a = table[Int(characters[index])]
                let b = table[Int(characters[index + 1])]
                let c = padding == 2 ? 0 : table[Int(characters[index + 2])]
                let d = padding >= 1 ? 0 : table[Int(characters[index + 3])]
                invalid |= a | b | c | d
                output[out] = a << 2 | b >> 4
                if padding < 2 { output[out + 1] = b << 4 | c >> 2 }
                if padding < 1 { output[out + 2] = c << 6 | d }
                failed = invalid & 0xC0 != 0
            }
            initialized = failed ? 0 : byteCount
        }
        return failed ? nil : bytes
    }

    /// How many bytes `text` encodes, when it is padded standard base64 (what `decode` accepts),
    /// without decoding it: a client that needs only an audio chunk's length checks its base64
    /// in one pass of table lookups.
    package static func decodedByteCount(_ text: String) -> Int? {
        var text = text
        return text.withUTF8 { decodedByteCount($0) }
    }

    package static func decodedByteCount(_ characters: UnsafeBufferPointer<UInt8>) -> Int? {
        let count = characters.count
        guard count % 4 == 0 else { return nil }
        guard count > 0 else { return 0 }
        let padding = characters[count - 1] == UInt8(ascii: "=") ? (characters[count - 2] == UInt8(ascii: "=") ? 2 : 1) : 0
        let valid = table.withUnsafeBufferPointer { table in
            var invalid: UInt8 = 0
            for index in 0..<(count - padding) { invalid |= table[Int(characters[index])] }
            return invalid & 0xC0 == 0
        }
        return valid ? count / 4 * 3 - padding : nil
    }

    /// The 6-bit value of each character; 0xFF for a character outside the alphabet (`=` too:
    /// padding is handled apart).
    private static let table: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (value, character) in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8.enumerated() {
            table[Int(character)] = UInt8(value)
        }
        return table
    }()
}
