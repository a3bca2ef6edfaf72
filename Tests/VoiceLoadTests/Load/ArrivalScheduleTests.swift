import Testing

@testable import VoiceLoad

@Suite("Arrival schedules")
struct ArrivalScheduleTests {
    private func offsets(_ schedule: ArrivalSchedule) -> [Double] {
        var schedule = schedule
        var result: [Double] = []
        while let next = schedule.next(), result.count < 1_000_000 { result.append(next) }
        return result
    }

    @Test func uniformArrivalsAreEvenlySpaced() {
        let schedule = ArrivalSchedule(rates: .constantRate(4, durationMs: 2_000), process: .uniform, seed: 1)
        #expect(offsets(schedule) == [125, 375, 625, 875, 1_125, 1_375, 1_625, 1_875])
    }

    @Test func uniformSegmentsPartitionTheWholeSchedule() {
        let rates = StageList.constantRate(10, durationMs: 3_000)
        let whole = offsets(ArrivalSchedule(rates: rates, process: .uniform, seed: 1))
        let parts = (0..<4).flatMap { index in
            offsets(ArrivalSchedule(rates: rates, process: .uniform, seed: 1, segment: LoadSegment(index: index, count: 4)))
        }
        #expect(whole.count == 30)
        #expect(parts.sorted() == whole)
    }

    @Test func poissonArrivalsHaveTheRateOnAverageAndRepeatWithTheSeed() {
        let rates = StageList.constantRate(50, durationMs: 600_000)
        let first = offsets(ArrivalSchedule(rates: rates, process: .poisson, seed: 7))
        let again = offsets(ArrivalSchedule(rates: rates, process: .poisson, seed: 7))
        #expect(first == again)
        // 30 000 expected; the standard deviation of a Poisson count is √30000 ≈ 173.
        #expect(abs(first.count - 30_000) < 1_000)
        #expect(first == first.sorted())
        #expect(first.allSatisfy { (0..<600_000).contains($0) })
    }

    @Test func poissonSegmentsTogetherHaveTheWholeRate() {
        let rates = StageList.constantRate(50, durationMs: 600_000)
        let total = (0..<4).map { index in
            offsets(ArrivalSchedule(rates: rates, process: .poisson, seed: 7, segment: LoadSegment(index: index, count: 4))).count
        }
        #expect(abs(total.reduce(0, +) - 30_000) < 1_000)
        #expect(total.allSatisfy { abs($0 - 7_500) < 600 })
    }

    @Test func aRampingRateStartsSessionsWhereTheCumulativeRateSaysSo() throws {
        // 0 → 10/s over 10 s: rate(t) = t, Λ(t) = t²/2 (t in s), so uniform start k (Λ = k − ½) is at √(2(k − ½)).
        let rates = try StageList.parse("10s:10/s")
        let starts = offsets(ArrivalSchedule(rates: rates, process: .uniform, seed: 1))
        #expect(starts.count == 50)
        for (k, start) in starts.enumerated() {
            let expected = (2 * (Double(k) + 0.5)).squareRoot() * 1_000
            #expect(abs(start - expected) < 0.01)
        }
    }
}
