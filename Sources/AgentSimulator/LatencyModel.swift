import Foundation
import VoiceLoad
import WSCore

/// How long the simulated agent takes to answer: from the end of the user's speech to the
/// first reply audio.
package enum LatencyModel: Sendable, Hashable, CustomStringConvertible {
    case fixed(ms: Int)
    case uniform(minMs: Int, maxMs: Int)
    case normal(meanMs: Int, standardDeviationMs: Int)

    /// Parses `700`, `fixed:700`, `uniform:600-900` or `normal:700,50`.
    package init(parsing text: String) throws(InputError) {
        let parts = text.split(separator: ":", maxSplits: 1).map(String.init)
        let kind = parts.count == 2 ? parts[0] : "fixed"
        let value = parts.count == 2 ? parts[1] : parts[0]
        func number(_ string: some StringProtocol) throws(InputError) -> Int {
            guard let number = Int(string.trimmingCharacters(in: .whitespaces)), number >= 0 else {
                throw InputError("invalid reply latency '\(text)': expected milliseconds ≥ 0")
            }
            return number
        }
        switch kind {
        case "fixed":
            self = .fixed(ms: try number(value))
        case "uniform":
            let bounds = value.split(separator: "-")
            guard bounds.count == 2 else { throw InputError("invalid reply latency '\(text)': expected uniform:MIN-MAX") }
            let (low, high) = (try number(bounds[0]), try number(bounds[1]))
            guard low <= high else { throw InputError("invalid reply latency '\(text)': MIN is above MAX") }
            self = .uniform(minMs: low, maxMs: high)
        case "normal":
            let values = value.split(separator: ",")
            guard values.count == 2 else { throw InputError("invalid reply latency '\(text)': expected normal:MEAN,SD") }
            self = .normal(meanMs: try number(values[0]), standardDeviationMs: try number(values[1]))
        default:
            throw InputError("invalid reply latency '\(text)': use fixed:MS, uniform:MIN-MAX or normal:MEAN,SD")
        }
    }

    /// The smallest latency the model can produce.
    package var minimumMs: Int {
        switch self {
        case .fixed(let ms): return ms
        case .uniform(let low, _): return low
        case .normal: return 0
        }
    }

    /// One draw, in microseconds.
    package func sampleUs(using generator: inout SeededGenerator) -> Int64 {
        switch self {
        case .fixed(let ms):
            return Int64(ms) * 1_000
        case .uniform(let low, let high):
            return Int64.random(in: Int64(low) * 1_000...Int64(high) * 1_000, using: &generator)
        case .normal(let mean, let deviation):
            // Box–Muller; clamped at zero.
            let u1 = Double.random(in: Double.ulpOfOne..<1, using: &generator)
            let u2 = Double.random(in: 0..<1, using: &generator)
            let z = (-2 * log(u1)).squareRoot() * cos(2 * .pi * u2)
            return max(0, Int64((Double(mean) + z * Double(deviation)) * 1_000))
        }
    }

    package var description: String {
        switch self {
        case .fixed(let ms): return "fixed:\(ms)"
        case .uniform(let low, let high): return "uniform:\(low)-\(high)"
        case .normal(let mean, let deviation): return "normal:\(mean),\(deviation)"
        }
    }
}
