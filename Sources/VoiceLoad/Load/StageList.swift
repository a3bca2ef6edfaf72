import Foundation

/// Stages as written: `30s:50,1m:50,30s:0` (clients) or `30s:10/s,2m:10/s` (an arrival rate).
package struct StageList: Sendable, Hashable {
    package enum Kind: String, Sendable, Hashable {
        /// Targets are concurrent clients (a closed model that ramps).
        case clients
        /// Targets are session starts per second (an open model that ramps).
        case arrivalRate = "arrival_rate"
    }

    package var kind: Kind
    /// Where the first stage starts from (0 unless an arrival rate is given with the stages).
    package var start: Double
    package var stages: [LoadStage]

    package init(kind: Kind, start: Double = 0, stages: [LoadStage]) {
        self.kind = kind
        self.start = start
        self.stages = stages
    }

    /// A constant arrival rate for a time.
    package static func constantRate(_ perSecond: Double, durationMs: Int) -> StageList {
        StageList(kind: .arrivalRate, start: perSecond, stages: [LoadStage(durationMs: durationMs, target: perSecond)])
    }

    /// Parses `DURATION:TARGET[,DURATION:TARGET…]`; a target ending in `/s` (or `/m`) is a rate.
    package static func parse(_ text: String, option: String = "--stages") throws(InputError) -> StageList {
        let items = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        guard !items.isEmpty, !items.contains(where: \.isEmpty) else {
            throw InputError("invalid \(option) '\(text)': use DURATION:TARGET pairs like 30s:50,1m:50,30s:0")
        }
        var parsed: [(stage: LoadStage, kind: Kind)] = []
        for item in items {
            let parts = item.split(separator: ":", maxSplits: 1).map(String.init)
            guard parts.count == 2 else {
                throw InputError("invalid \(option) stage '\(item)': use DURATION:TARGET, like 30s:50 or 1m:10/s")
            }
            let durationMs = try DurationText.milliseconds(parts[0], option: "\(option) stage duration")
            let (target, kind) = try parseTarget(parts[1], option: option)
            parsed.append((LoadStage(durationMs: durationMs, target: target), kind))
        }
        let kinds = Set(parsed.map(\.kind))
        guard kinds.count == 1, let kind = kinds.first else {
            throw InputError("invalid \(option) '\(text)': targets are all clients (30s:50) or all rates (30s:10/s), not both")
        }
        let list = StageList(kind: kind, stages: parsed.map(\.stage))
        try list.validate(option: option)
        return list
    }

    /// A target: `50` clients, or `10/s`, `600/m` starts per second.
    package static func parseTarget(_ text: String, option: String) throws(InputError) -> (Double, Kind) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let rate = ArrivalRate.parsePerSecond(trimmed) { return (rate, .arrivalRate) }
        guard let clients = Int(trimmed), clients >= 0 else {
            throw InputError("invalid \(option) target '\(text)': a number of clients (50) or a rate (10/s)")
        }
        return (Double(clients), .clients)
    }

    /// Rejects stage lists no run can follow.
    package func validate(option: String) throws(InputError) {
        guard !stages.isEmpty else { throw InputError("\(option) needs at least one stage") }
        guard start > 0 || stages.contains(where: { $0.target > 0 }) else {
            throw InputError("\(option): every target is 0, so no session would start")
        }
        guard totalDurationMs > 0 else { throw InputError("\(option): the stages last 0 s in all") }
        if kind == .clients, let peak = stages.map(\.target).max(), peak > 100_000 {
            throw InputError("\(option): \(ArrivalRate.format(peak)) clients is more than 100000")
        }
        if kind == .arrivalRate, let peak = stages.map(\.target).max(), peak > 10_000 {
            throw InputError("\(option): \(peak)/s is more than 10000 starts per second")
        }
    }

    package var totalDurationMs: Int { stages.reduce(0) { $0 + $1.durationMs } }

    /// The highest target.
    package var peak: Double { max(start, stages.map(\.target).max() ?? 0) }

    /// The target at `offsetMs` from the start (the last target after the end).
    package func target(atMs offsetMs: Double) -> Double {
        var from = start
        var startMs = 0.0
        for stage in stages {
            let endMs = startMs + Double(stage.durationMs)
            if offsetMs < endMs {
                let fraction = stage.durationMs > 0 ? (offsetMs - startMs) / Double(stage.durationMs) : 1
                return from + (stage.target - from) * max(0, fraction)
            }
            from = stage.target
            startMs = endMs
        }
        return from
    }

    /// `30s:50, 1m:50` as written back.
    package var description: String {
        stages.map { stage in
            let target = kind == .clients ? String(Int(stage.target)) : "\(ArrivalRate.format(stage.target))/s"
            return "\(Double(stage.durationMs) / 1_000)s:\(target)"
        }.joined(separator: ",")
    }
}
