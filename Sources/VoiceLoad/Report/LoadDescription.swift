/// How a run started its sessions, as report.json records it (`config.load`).
package struct LoadDescription: Codable, Sendable, Hashable {
    enum CodingKeys: String, CodingKey {
        case model
        case arrivalProcess = "arrival_process"
        case maxInFlight = "max_in_flight"
        case stagesStart = "stages_start"
        case stages, segment
        case segmentCount = "segment_count"
    }

    /// `closed`, `staged_clients` or `arrival_rate`.
    package var model: String
    /// Open model: `poisson` or `uniform`.
    package var arrivalProcess: String?
    /// Open model: the whole load's in-flight limit.
    package var maxInFlight: Int?
    /// Where the stages start from (an arrival rate's starting rate).
    package var stagesStart: Double?
    /// Staged or open model: targets in clients, or starts per second.
    package var stages: [LoadStage]?
    /// Set when the run was one segment of a split load: 1-based index and count.
    package var segment: Int?
    package var segmentCount: Int?

    /// The model again, from what the report recorded (seed aside).
    package var profileModel: LoadProfile.Model {
        switch model {
        case "staged_clients":
            return .stagedClients(StageList(kind: .clients, stages: stages ?? []))
        case "arrival_rate":
            let rates = StageList(kind: .arrivalRate, start: stagesStart ?? 0, stages: stages ?? [])
            let process = arrivalProcess.flatMap(ArrivalProcess.init(rawValue:)) ?? .poisson
            return .arrivals(ArrivalPlan(rates: rates, process: process, maxInFlight: maxInFlight ?? 0))
        default:
            return .closed
        }
    }

    package init(_ profile: LoadProfile) {
        switch profile.model {
        case .closed:
            model = "closed"
        case .stagedClients(let stages):
            model = "staged_clients"
            self.stages = stages.stages
        case .arrivals(let plan):
            model = "arrival_rate"
            arrivalProcess = plan.process.rawValue
            maxInFlight = plan.maxInFlight
            stagesStart = plan.rates.start
            stages = plan.rates.stages
        }
        if !profile.segment.isWhole {
            segment = profile.segment.index + 1
            segmentCount = profile.segment.count
        }
    }
}
