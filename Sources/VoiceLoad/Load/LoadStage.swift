import Foundation

/// One stage of a staged load: over `durationMs` the target moves in a straight line from
/// where the previous stage ended (zero before the first) to `target`: a number of concurrent
/// clients, or sessions started per second when the stages describe an arrival rate.
package struct LoadStage: Sendable, Hashable, Codable {
    package var durationMs: Int
    package var target: Double

    package init(durationMs: Int, target: Double) {
        self.durationMs = durationMs
        self.target = target
    }

    enum CodingKeys: String, CodingKey {
        case durationMs = "duration_ms"
        case target
    }
}
