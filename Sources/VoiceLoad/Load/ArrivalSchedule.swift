import Foundation
import WSCore

/// The start times of an open model's sessions: a (possibly ramping) arrival rate turned into
/// offsets from the run's start. Pure and seeded, so the same inputs give the same starts.
///
/// The rate is piecewise linear (its stages); arrival k is where the cumulative rate
/// Λ(t) = ∫ rate reaches a mark: the sum of k exponential draws for Poisson arrivals, k − ½
/// for uniform ones. A segment `i/n` of a Poisson schedule runs at rate/n with its own seed
/// (the union of n independent Poisson processes is the whole); a segment of a uniform schedule
/// takes every n-th mark, so the segments partition the whole run's starts exactly.
package struct ArrivalSchedule: Sendable {
    package let rates: StageList
    package let process: ArrivalProcess
    package let segment: LoadSegment
    private var generator: SeededGenerator
    /// Λ of the previous arrival (Poisson), or how many marks have been taken (uniform).
    private var mark = 0.0
    private var marksTaken = 0

    package init(rates: StageList, process: ArrivalProcess, seed: UInt64, segment: LoadSegment = .whole) {
        self.rates = rates
        self.process = process
        self.segment = segment
        generator = SeededGenerator(seed: seed &+ UInt64(segment.index) &* 0x5851_F42D_4C95_7F2D)
    }

    /// The next start, in milliseconds from the run's start; nil once the stages are over.
    package mutating func next() -> Double? {
        let target: Double
        switch process {
        case .poisson:
            let uniform = Double.random(in: Double.ulpOfOne..<1, using: &generator)
            mark += -log(uniform) * Double(segment.count)
            target = mark
        case .uniform:
            target = Double(marksTaken * segment.count + segment.index) + 0.5
            marksTaken += 1
        }
        return offsetMs(whereCumulativeReaches: target)
    }

    /// The offset where Λ (starts so far at the whole run's rate) reaches `cumulative`.
    func offsetMs(whereCumulativeReaches cumulative: Double) -> Double? {
        var startMs = 0.0
        var fromPerMs = rates.start / 1_000
        var before = 0.0
        for stage in rates.stages {
            let durationMs = Double(stage.durationMs)
            let toPerMs = stage.target / 1_000
            // Within the stage: rate(τ) = a + b·τ, Λ(τ) = a·τ + b·τ²/2.
            let a = fromPerMs
            let b = durationMs > 0 ? (toPerMs - fromPerMs) / durationMs : 0
            let inStage = a * durationMs + b * durationMs * durationMs / 2
            if durationMs > 0, before + inStage >= cumulative {
                let needed = cumulative - before
                let tau: Double
                if abs(b) < 1e-15 {
                    tau = a > 0 ? needed / a : durationMs
                } else {
                    tau = (-a + (a * a + 2 * b * needed).squareRoot()) / b
                }
                return startMs + min(max(tau, 0), durationMs)
            }
            before += inStage
            startMs += durationMs
            fromPerMs = toPerMs
        }
        return nil
    }
}
