import Foundation

/// Reading a run's caller ranges from a scenario's `callers:` block or the `--caller-*` flags
/// (docs/callers.md), with the one-line errors both print.
extension CallerVariation {
    /// The beds scripts/make-caller-audio.sh makes, found by name in `audio/noise/`.
    package static let shippedBeds = ["babble", "road", "pink"]
    /// Accepted SNRs: from noise 10 dB louder than the speech to noise too faint to hear.
    package static let snrRangeDb: ClosedRange<Double> = -10...60
    /// Accepted gains: from a caller far from the phone to one who shouts.
    package static let gainRangeDb: ClosedRange<Double> = -40...20

    /// Whether the run varies its callers at all: noise, a gain or a rate other than 1.
    package var variesCallers: Bool {
        !noiseBeds.isEmpty || gainDb != 0...0 || speakingRate != 1...1
    }

    /// Sets the beds: each a shipped name (`babble`, `road`, `pink`: `audio/noise/NAME.wav`
    /// beside the scenario, else in `scenarios/audio/noise/` of the working directory) or a
    /// `.wav` path relative to `directory`, named by its file name without `.wav`; none for no
    /// noise (`none`).
    package mutating func setNoise(beds: [String], relativeTo directory: String) throws(InputError) {
        noiseBeds = []
        bedPaths = [:]
        if beds == ["none"] { return }
        guard !beds.isEmpty else {
            throw InputError("the noise beds are empty: name \(Self.shippedBeds.joined(separator: ", ")) or WAV files (none for no noise)")
        }
        for bed in beds {
            let name: String
            let path: String
            if bed.lowercased().hasSuffix(".wav") {
                name = ((bed as NSString).lastPathComponent as NSString).deletingPathExtension
                path = bed.hasPrefix("/") ? bed : (directory as NSString).appendingPathComponent(bed)
            } else {
                guard Self.shippedBeds.contains(bed) else {
                    throw InputError("unknown noise bed '\(bed)' (shipped: \(Self.shippedBeds.joined(separator: ", ")); or a .wav file)")
                }
                name = bed
                let beside = (directory as NSString).appendingPathComponent("audio/noise/\(bed).wav")
                let shipped = "scenarios/audio/noise/\(bed).wav"
                path = FileManager.default.fileExists(atPath: beside) || !FileManager.default.fileExists(atPath: shipped) ? beside : shipped
            }
            guard bedPaths[name] == nil else { throw InputError("noise bed '\(name)' is named twice") }
            noiseBeds.append(name)
            bedPaths[name] = path
        }
    }

    /// `text` as a range: one number (`10`) or `min:max` with min ≤ max, both within `limits`,
    /// rounded to 0.01.
    /// `field` names it in the error, `usage` shows how a range is written there.
    package static func range(
        _ text: String,
        field: String,
        within limits: ClosedRange<Double>,
        usage: String = "min:max",
        shown: String? = nil
    ) throws(InputError) -> ClosedRange<Double> {
        // Draws are rounded to 0.01 (`voice(ofCaller:seed:)`), and so are the bounds.
        let parts = text.split(separator: ":", omittingEmptySubsequences: false).map {
            Double($0.trimmingCharacters(in: .whitespaces)).map { ($0 * 100).rounded() / 100 }
        }
        let message = "\(field) must be a number or \(usage) with min ≤ max, within \(describe(limits)) (got \(shown ?? text))"
        guard (1...2).contains(parts.count), let low = parts[0], let high = parts[parts.count - 1],
            low.isFinite, high.isFinite, low <= high, limits.contains(low), limits.contains(high)
        else { throw InputError(message) }
        return low...high
    }

    /// `10` or `10–20`, in the figures' shortest form.
    package static func describe(_ range: ClosedRange<Double>) -> String {
        range.lowerBound == range.upperBound
            ? figure(range.lowerBound) : "\(figure(range.lowerBound))–\(figure(range.upperBound))"
    }

    /// `10`, `0.8`, `-6` (at most two decimals: draws are rounded to 0.01).
    package static func figure(_ value: Double) -> String {
        let rounded = (value * 100).rounded() / 100
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(format: "%g", rounded)
    }

    /// The ranges in one line: `noise babble|road|pink at 10–20 dB SNR · gain -6–6 dB · rate 0.8–1.2`.
    package var summary: String {
        let noise = noiseBeds.isEmpty ? "no noise" : "noise \(noiseBeds.joined(separator: "|")) at \(Self.describe(snrDb)) dB SNR"
        return "\(noise) · gain \(Self.describe(gainDb)) dB · rate \(Self.describe(speakingRate))"
    }
}

extension CallerVoice {
    /// One caller in a line: `babble at 13.27 dB SNR from 2.310 s · gain 1.2 dB · rate 0.93`.
    package var summary: String {
        let background =
            noise.map {
                "\($0.bed) at \(CallerVariation.figure($0.snrDb)) dB SNR from \(String(format: "%.3f", Double($0.offsetMs) / 1_000)) s"
            }
            ?? "no noise"
        return "\(background) · gain \(CallerVariation.figure(gainDb)) dB · rate \(CallerVariation.figure(speakingRate))"
    }
}

extension CallerVariation {
    /// The `--caller-*` flags over a scenario's `callers:` ranges (`scenario`, nil without the
    /// block); nil when neither sets any. `noise` is a comma-separated list of beds (`none`:
    /// no noise), the ranges `10` or `10:20`; `directory` is the scenario's, where bed files
    /// are found.
    package static func overriding(
        _ scenario: CallerVariation?,
        noise: String?,
        snrDb: String?,
        gainDb: String?,
        rate: String?,
        directory: String
    ) throws(InputError) -> CallerVariation? {
        guard noise != nil || snrDb != nil || gainDb != nil || rate != nil else { return scenario }
        var variation = scenario ?? CallerVariation()
        let hadNoise = !variation.noiseBeds.isEmpty
        if let noise {
            let beds = noise.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            do throws(InputError) {
                try variation.setNoise(beds: beds, relativeTo: directory)
            } catch {
                throw InputError("--caller-noise: \(error.message)")
            }
        }
        if let snrDb { variation.snrDb = try range(snrDb, field: "--caller-snr-db", within: snrRangeDb) }
        if let gainDb { variation.gainDb = try range(gainDb, field: "--caller-gain-db", within: gainRangeDb) }
        if let rate { variation.speakingRate = try range(rate, field: "--caller-rate", within: TimeStretch.rates) }
        if snrDb != nil, variation.noiseBeds.isEmpty {
            throw InputError("--caller-snr-db needs noise: --caller-noise babble,road,pink (or the scenario's callers.noise)")
        }
        if !hadNoise, !variation.noiseBeds.isEmpty, snrDb == nil {
            throw InputError("--caller-noise needs --caller-snr-db (10, or a range 10:20)")
        }
        return variation
    }
}
