/// The callers a run drew (`callers` in report.json, docs/callers.md): the ranges, how many
/// sessions each noise bed got, and the smallest and largest SNR, gain and speaking rate drawn.
/// Each session's own draws are sessions.csv's `noise_bed` … `speaking_rate` columns.
package struct CallerDraws: Sendable, Hashable, Codable {
    /// The ranges the run drew from.
    package struct Ranges: Sendable, Hashable, Codable {
        package var noiseBeds: [String]
        package var snrDb: [Double]?
        package var gainDb: [Double]
        package var speakingRate: [Double]

        enum CodingKeys: String, CodingKey {
            case noiseBeds = "noise_beds"
            case snrDb = "snr_db"
            case gainDb = "gain_db"
            case speakingRate = "speaking_rate"
        }

        package init(_ variation: CallerVariation) {
            noiseBeds = variation.noiseBeds
            snrDb = variation.noiseBeds.isEmpty ? nil : [variation.snrDb.lowerBound, variation.snrDb.upperBound]
            gainDb = [variation.gainDb.lowerBound, variation.gainDb.upperBound]
            speakingRate = [variation.speakingRate.lowerBound, variation.speakingRate.upperBound]
        }
    }

    /// The smallest and largest value drawn.
    package struct Span: Sendable, Hashable, Codable {
        package var min: Double
        package var max: Double

        mutating func add(_ value: Double) {
            min = Swift.min(min, value)
            max = Swift.max(max, value)
        }

        static func + (lhs: Span, rhs: Span) -> Span {
            Span(min: Swift.min(lhs.min, rhs.min), max: Swift.max(lhs.max, rhs.max))
        }
    }

    package var ranges: Ranges
    /// Sessions whose caller had a voice drawn (every session of the run, warm-up included).
    package var sessions = 0
    /// Sessions by noise bed (`none` for a caller without noise).
    package var noiseBeds: [String: Int] = [:]
    package var snrDb: Span?
    package var gainDb: Span?
    package var speakingRate: Span?

    enum CodingKeys: String, CodingKey {
        case ranges, sessions
        case noiseBeds = "noise_beds"
        case snrDb = "snr_db"
        case gainDb = "gain_db"
        case speakingRate = "speaking_rate"
    }

    package init(ranges: Ranges) {
        self.ranges = ranges
    }

    /// A session ended: its caller's draws are counted.
    mutating func add(_ voice: CallerVoice) {
        sessions += 1
        noiseBeds[voice.noise?.bed ?? "none", default: 0] += 1
        if let noise = voice.noise { Self.add(noise.snrDb, to: &snrDb) }
        Self.add(voice.gainDb, to: &gainDb)
        Self.add(voice.speakingRate, to: &speakingRate)
    }

    private static func add(_ value: Double, to span: inout Span?) {
        if span == nil { span = Span(min: value, max: value) } else { span?.add(value) }
    }

    /// Both runs' draws (merged reports); the ranges are the first's.
    package static func + (lhs: CallerDraws, rhs: CallerDraws) -> CallerDraws {
        var total = lhs
        total.sessions += rhs.sessions
        total.noiseBeds.merge(rhs.noiseBeds, uniquingKeysWith: +)
        total.snrDb = combined(lhs.snrDb, rhs.snrDb)
        total.gainDb = combined(lhs.gainDb, rhs.gainDb)
        total.speakingRate = combined(lhs.speakingRate, rhs.speakingRate)
        return total
    }

    private static func combined(_ lhs: Span?, _ rhs: Span?) -> Span? {
        guard let lhs, let rhs else { return lhs ?? rhs }
        return lhs + rhs
    }
}
