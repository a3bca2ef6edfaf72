import ArgumentParser
import Foundation
import VoiceLoad

/// `--caller-*`: how callers vary (docs/callers.md), over the scenario's `callers:` block.
struct CallerOptions: ParsableArguments {
    @Option(
        name: .customLong("caller-noise"),
        help: ArgumentHelp(
            "Background noise, one bed per caller drawn from this list: babble, road, pink or WAV files (none: no noise). Needs --caller-snr-db.",
            valueName: "beds"
        )
    )
    var noise: String?

    @Option(
        name: .customLong("caller-snr-db"),
        parsing: .unconditional,
        help: ArgumentHelp("Signal-to-noise ratio of each caller's speech over its noise, in dB: 10 or a range 10:20.", valueName: "dB")
    )
    var snrDb: String?

    @Option(
        name: .customLong("caller-gain-db"),
        parsing: .unconditional,
        help: ArgumentHelp("Gain on each caller's audio in dB: 3 or a range -6:6 (saturates at full scale).", valueName: "dB")
    )
    var gainDb: String?

    @Option(
        name: .customLong("caller-rate"),
        parsing: .unconditional,
        help: ArgumentHelp("Speaking rate of each caller, without a change of pitch: 1.1 or a range 0.8:1.2 (0.5–2).", valueName: "rate")
    )
    var rate: String?

    /// `scenario` with the flags over its `callers:` ranges.
    func applied(to scenario: Scenario) throws(InputError) -> Scenario {
        var scenario = scenario
        scenario.callers = try CallerVariation.overriding(
            scenario.callers,
            noise: noise,
            snrDb: snrDb,
            gainDb: gainDb,
            rate: rate,
            directory: (scenario.sourcePath as NSString).deletingLastPathComponent
        )
        return scenario
    }
}
