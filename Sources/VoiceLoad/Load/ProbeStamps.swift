import NIOCore

/// The read side of the receive-lag probe as a value type: the bytes an event loop read from
/// its probe pipe in, the lateness of each stamp in them out.
///
/// The probe's writer puts one stamp per write into the pipe: the `MonotonicInstant` of the
/// write as 8 bytes (big-endian nanoseconds). A read may end inside a stamp (it never should,
/// since pipe writes of 8 bytes are atomic, but a read buffer need not be a multiple of 8), so
/// a partial stamp is kept for the next read.
struct ProbeStamps: Sendable {
    static let stampBytes = 8

    private var partial: [UInt8] = []

    /// How late each whole stamp in `buffer` was read, in microseconds (read time − stamp,
    /// never negative), in the order written.
    mutating func lagsUs(reading buffer: inout ByteBuffer, at readAt: MonotonicInstant) -> [Int64] {
        var lags: [Int64] = []
        lags.reserveCapacity((partial.count + buffer.readableBytes) / Self.stampBytes)
        if !partial.isEmpty {
            let missing = Self.stampBytes - partial.count
            guard let rest = buffer.readBytes(length: min(missing, buffer.readableBytes)) else { return lags }
            partial += rest
            guard partial.count == Self.stampBytes else { return lags }
            var whole = ByteBuffer(bytes: partial)
            partial.removeAll(keepingCapacity: true)
            if let stamp = whole.readInteger(endianness: .big, as: UInt64.self) { lags.append(Self.lagUs(stamp, readAt)) }
        }
        while let stamp = buffer.readInteger(endianness: .big, as: UInt64.self) {
            lags.append(Self.lagUs(stamp, readAt))
        }
        if buffer.readableBytes > 0, let rest = buffer.readBytes(length: buffer.readableBytes) { partial = rest }
        return lags
    }

    /// The 8 bytes written for a stamp taken at `instant`.
    static func bytes(of instant: MonotonicInstant) -> [UInt8] {
        withUnsafeBytes(of: instant.nanoseconds.bigEndian) { Array($0) }
    }

    private static func lagUs(_ stampNanoseconds: UInt64, _ readAt: MonotonicInstant) -> Int64 {
        readAt.nanoseconds > stampNanoseconds ? Int64((readAt.nanoseconds - stampNanoseconds) / 1_000) : 0
    }
}
