/// DTLS record framing (RFC 6347 §4.1): a 13-byte header whose last two bytes are the length.
enum DTLSRecords {
    static let headerBytes = 13

    /// Whole records from `bytes`, packed in order into datagrams of at most `mtuBytes` (a record
    /// larger than that goes alone). Trailing bytes that are not a whole record go as they are.
    static func datagrams(from bytes: [UInt8], mtuBytes: Int) -> [[UInt8]] {
        var datagrams: [[UInt8]] = []
        var current: [UInt8] = []
        var offset = 0
        while offset < bytes.count {
            var end = bytes.count
            if offset + headerBytes <= bytes.count {
                let length = Int(bytes[offset + 11]) << 8 | Int(bytes[offset + 12])
                end = min(bytes.count, offset + headerBytes + length)
            }
            let record = bytes[offset..<end]
            if !current.isEmpty && current.count + record.count > mtuBytes {
                datagrams.append(current)
                current = []
            }
            current += record
            offset = end
        }
        if !current.isEmpty { datagrams.append(current) }
        return datagrams
    }
}
