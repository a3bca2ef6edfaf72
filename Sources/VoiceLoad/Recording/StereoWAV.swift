/// A stereo 16-bit PCM WAV file (RIFF, `WAVE_FORMAT_PCM`), little-endian, written in one piece.
package enum StereoWAV {
    package static let headerBytes = 44

    /// The file's bytes: `left` and `right` interleaved (the shorter padded with silence).
    package static func bytes(left: [Int16], right: [Int16], sampleRateHz: Int) -> [UInt8] {
        let frames = max(left.count, right.count)
        let dataBytes = frames * 4
        var out: [UInt8] = []
        out.reserveCapacity(headerBytes + dataBytes)
        func append32(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { out.append(contentsOf: $0) } }
        func append16(_ value: UInt16) { withUnsafeBytes(of: value.littleEndian) { out.append(contentsOf: $0) } }
        out.append(contentsOf: Array("RIFF".utf8))
        append32(UInt32(36 + dataBytes))
        out.append(contentsOf: Array("WAVEfmt ".utf8))
        append32(16)
        append16(1)  // PCM
        append16(2)  // channels
        append32(UInt32(sampleRateHz))
        append32(UInt32(sampleRateHz * 4))  // bytes a second
        append16(4)  // bytes a frame
        append16(16)  // bits a sample
        out.append(contentsOf: Array("data".utf8))
        append32(UInt32(dataBytes))
        // The samples written in place over zeros (the shorter channel's padding): a byte append
        // a sample cost ~100 instructions each, 1.5 G for five 16 s recordings at a run's end.
        let dataStart = out.count
        out.append(contentsOf: repeatElement(0, count: dataBytes))
        out.withUnsafeMutableBytes { data in
            for (index, sample) in left.enumerated() {
                data.storeBytes(of: UInt16(bitPattern: sample).littleEndian, toByteOffset: dataStart + index * 4, as: UInt16.self)
            }
            for (index, sample) in right.enumerated() {
                data.storeBytes(of: UInt16(bitPattern: sample).littleEndian, toByteOffset: dataStart + index * 4 + 2, as: UInt16.self)
            }
        }
        return out
    }
}
