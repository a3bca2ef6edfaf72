import WSCore

/// A seeded bootstrap of percentiles from a histogram: resamples the recorded values with
/// replacement (as many as were recorded) and reads the percentiles of each resample; the
/// 2.5th and 97.5th percentiles of those give a 95% interval. Deterministic for a seed.
package struct PercentileBootstrap: Sendable {
    /// Distinct recorded values (µs), ascending, and how often each was recorded.
    let values: [UInt64]
    let cumulative: [UInt64]
    package let count: Int

    package init(_ histogram: LatencyHistogram) {
        let pairs = histogram.sparseValues.filter { $0.count == 2 && $0[1] > 0 }.sorted { $0[0] < $1[0] }
        values = pairs.map { $0[0] }
        var running: UInt64 = 0
        cumulative = pairs.map {
            running += $0[1]
            return running
        }
        count = Int(running)
    }

    /// The percentile (0–100] of value counts `counts` aligned with `values`, in ms: the smallest
    /// value at or above rank ⌈q·n⌉.
    static func percentile(_ percentile: Double, counts: [UInt64], values: [UInt64], total: Int) -> Double {
        let rank = UInt64(max(1, (percentile / 100 * Double(total)).rounded(.up)))
        var running: UInt64 = 0
        for (index, count) in counts.enumerated() {
            running += count
            if running >= rank { return Double(values[index]) / 1_000 }
        }
        return Double(values.last ?? 0) / 1_000
    }

    /// The percentile of the recorded values themselves, in ms.
    package func point(_ percentile: Double) -> Double? {
        guard count > 0 else { return nil }
        var counts = cumulative
        for index in counts.indices.reversed() where index > 0 { counts[index] -= counts[index - 1] }
        return Self.percentile(percentile, counts: counts, values: values, total: count)
    }

    /// 95% intervals (ms) of each percentile, from `resamples` resamples seeded by `seed`.
    package func intervals(_ percentiles: [Double], resamples: Int = 1_000, seed: UInt64) -> [ClosedRange<Double>] {
        guard count > 0 else { return [] }
        var random = SeededGenerator(seed: seed)
        var estimates = Array(repeating: [Double](), count: percentiles.count)
        var counts = [UInt64](repeating: 0, count: values.count)
        let total = UInt64(count)
        for _ in 0..<resamples {
            for index in counts.indices { counts[index] = 0 }
            for _ in 0..<count {
                counts[bucket(of: random.next(upperBound: total) + 1)] += 1
            }
            for (index, percentile) in percentiles.enumerated() {
                estimates[index].append(Self.percentile(percentile, counts: counts, values: values, total: count))
            }
        }
        return estimates.map { samples in
            let sorted = samples.sorted()
            let low = sorted[Int((Double(sorted.count - 1) * 0.025).rounded())]
            let high = sorted[Int((Double(sorted.count - 1) * 0.975).rounded())]
            return low...high
        }
    }

    /// The index of the value holding rank `rank` (1-based).
    private func bucket(of rank: UInt64) -> Int {
        var low = 0
        var high = cumulative.count - 1
        while low < high {
            let middle = (low + high) / 2
            if cumulative[middle] >= rank { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
