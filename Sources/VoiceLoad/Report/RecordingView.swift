import Foundation

/// A recorded call as report.html shows it (docs/recordings.md): its entry in report.json, its
/// marks, and the peak level of each channel per column of its waveform, read from its files
/// in the report's directory.
package struct RecordingView: Sendable, Hashable {
    package var call: RecordingSummary.Call
    /// nil when the marks file could not be read.
    package var marks: CallMarks?
    /// Peak level per column, 0 to 1: left the caller, right the agent (empty when the WAV could
    /// not be read).
    package var leftPeaks: [Double]
    package var rightPeaks: [Double]

    /// Columns of a waveform.
    package static let columns = 600

    package init(call: RecordingSummary.Call, marks: CallMarks?, leftPeaks: [Double], rightPeaks: [Double]) {
        self.call = call
        self.marks = marks
        self.leftPeaks = leftPeaks
        self.rightPeaks = rightPeaks
    }

    /// The recordings `summary` lists, read from `directory` (the report's); a file that
    /// cannot be read leaves its part out.
    package static func load(_ summary: RecordingSummary?, directory: URL) -> [RecordingView] {
        (summary?.calls ?? []).map { call in
            let marks = (try? Data(contentsOf: directory.appendingPathComponent(call.marks))).flatMap {
                try? JSONDecoder().decode(CallMarks.self, from: $0)
            }
            let wav = (try? Data(contentsOf: directory.appendingPathComponent(call.wav))).map { [UInt8]($0) } ?? []
            let (left, right) = peaks(ofStereoWAV: wav, columns: columns)
            return RecordingView(call: call, marks: marks, leftPeaks: left, rightPeaks: right)
        }
    }

    /// The peaks of a 16-bit stereo WAV as `StereoWAV` writes it (its data after the 44-byte
    /// header), `columns` per channel; empty for anything else.
    package static func peaks(ofStereoWAV bytes: [UInt8], columns: Int) -> (left: [Double], right: [Double]) {
        guard bytes.count > StereoWAV.headerBytes, Array(bytes[36..<40]) == Array("data".utf8), bytes[22] == 2, bytes[34] == 16 else {
            return ([], [])
        }
        let frames = (bytes.count - StereoWAV.headerBytes) / 4
        guard frames > 0 else { return ([], []) }
        // Column `c` holds frames `frame * columns / frames == c`: from ceil(c * frames / columns)
        // up to the next column's first. The largest magnitude in integers, divided once.
        func firstFrame(ofColumn column: Int) -> Int { (column * frames + columns - 1) / columns }
        var left = [Double](repeating: 0, count: columns)
        var right = [Double](repeating: 0, count: columns)
        bytes.withUnsafeBytes { raw in
            func magnitude(_ offset: Int) -> Int { abs(Int(Int16(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: Int16.self)))) }
            for column in 0..<columns {
                var (leftMax, rightMax) = (0, 0)
                for frame in firstFrame(ofColumn: column)..<firstFrame(ofColumn: column + 1) {
                    let offset = StereoWAV.headerBytes + frame * 4
                    leftMax = max(leftMax, magnitude(offset))
                    rightMax = max(rightMax, magnitude(offset + 2))
                }
                left[column] = Double(leftMax) / 32_768
                right[column] = Double(rightMax) / 32_768
            }
        }
        return (left, right)
    }
}
