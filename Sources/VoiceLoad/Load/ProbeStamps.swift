import NIOCore
import WSCore

/// The read side of the receive-lag probe as a value type: the bytes an event loop read from
/// its probe pipe in, the lateness of each stamp in them out.
///
/// The probe's writer puts one stamp per write into the pipe: the `MonotonicInstant` of the
/// write as 8 bytes (big-endian nanoseconds). A read may end inside a stamp (it never should,
/// since pipe writes of 8 bytes are atomic, but a read buffer need not be a multiple of 8), so
/// a partial stamp is kept for the next read.
struct ProbeStamps: Sendable {
    static let stampBytes = 8

    /// Bytes read but not yet a whole stamp.
    private var pending = ByteBuffer()

    /// How late each whole stamp in `buffer` was read, in microseconds (read time − stamp,
    /// never negative), in the order written.
    mutating func lagsUs(reading buffer: inout ByteBuffer, at readAt: MonotonicInstant) -> [Int64] {
        pending.writeBuffer(&buffer)
        var lags: [Int64] = []
        lags.reserveCapacity(pending.readableBytes / Self.stampBytes)
        while let stamp = pending.readInteger(endianness: .big, as: UInt64.self) {
            lags.append(readAt.nanoseconds > stamp ? Int64((readAt.nanoseconds - stamp) / 1_000) : 0)
        }
        pending.discardReadBytes()
        return lags
    }

    /// The 8 bytes written for a stamp taken at `instant`.
    static func bytes(of instant: MonotonicInstant) -> [UInt8] {
        withUnsafeBytes(of: instant.nanoseconds.bigEndian) { Array($0) }
    }
}
