import Foundation
import Yams

extension ScenarioLoader {
    static let callerKeys = ["noise", "gain_db", "rate"]
    static let callerNoiseKeys = ["beds", "snr_db"]

    /// `callers: {noise: {beds: [babble, road, pink], snr_db: [10, 20]}, gain_db: [-6, 6], rate: [0.8, 1.2]}`
    /// (docs/callers.md): each range a number or `[min, max]`; a bed is a shipped name or a WAV
    /// path relative to the scenario.
    static func callers(_ node: Node, reader: NodeReader, baseDirectory: String) throws(ScenarioError) -> CallerVariation {
        guard let mapping = node.mapping else {
            throw reader.error(
                at: node,
                "'callers' must be a mapping like {noise: {beds: [babble], snr_db: [10, 20]}, gain_db: [-6, 6], rate: [0.8, 1.2]}"
            )
        }
        try reader.rejectUnknownKeys(in: mapping, allowed: callerKeys, what: "field of 'callers'")
        var variation = CallerVariation()
        if let noise = mapping["noise"] {
            guard let noiseMapping = noise.mapping else {
                throw reader.error(at: noise, "'callers.noise' must be a mapping like {beds: [babble, road, pink], snr_db: [10, 20]}")
            }
            try reader.rejectUnknownKeys(in: noiseMapping, allowed: callerNoiseKeys, what: "field of 'callers.noise'")
            guard let bedsNode = noiseMapping["beds"], let snrNode = noiseMapping["snr_db"] else {
                throw reader.error(
                    at: noise,
                    "'callers.noise' needs 'beds' (babble, road, pink or WAV files) and 'snr_db' (10 or [10, 20])"
                )
            }
            let beds: [String]
            if let items = bedsNode.sequence {
                beds = try items.map { item throws(ScenarioError) in try reader.string(item, field: "callers.noise.beds") }
            } else {
                beds = [try reader.string(bedsNode, field: "callers.noise.beds")]
            }
            do throws(InputError) {
                try variation.setNoise(beds: beds, relativeTo: baseDirectory)
            } catch {
                throw reader.error(at: bedsNode, error.message)
            }
            variation.snrDb = try callerRange(snrNode, field: "callers.noise.snr_db", within: CallerVariation.snrRangeDb, reader: reader)
        }
        if let gain = mapping["gain_db"] {
            variation.gainDb = try callerRange(gain, field: "callers.gain_db", within: CallerVariation.gainRangeDb, reader: reader)
        }
        if let rate = mapping["rate"] {
            variation.speakingRate = try callerRange(rate, field: "callers.rate", within: TimeStretch.rates, reader: reader)
        }
        return variation
    }

    /// A number or `[min, max]` with min ≤ max, both within `limits`.
    private static func callerRange(
        _ node: Node,
        field: String,
        within limits: ClosedRange<Double>,
        reader: NodeReader
    ) throws(ScenarioError) -> ClosedRange<Double> {
        let text: String
        var shown: String?
        if let items = node.sequence {
            text = items.map { $0.scalar?.string ?? "?" }.joined(separator: ":")
            shown = "[" + items.map { $0.scalar?.string ?? "?" }.joined(separator: ", ") + "]"
            guard items.count == 2 else {
                throw reader.error(
                    at: node,
                    "'\(field)' must be a number or [min, max] with min ≤ max, within \(CallerVariation.describe(limits))"
                )
            }
        } else {
            text = node.scalar?.string ?? "?"
        }
        do throws(InputError) {
            return try CallerVariation.range(text, field: "'\(field)'", within: limits, usage: "[min, max]", shown: shown)
        } catch {
            throw reader.error(at: node, error.message)
        }
    }
}
