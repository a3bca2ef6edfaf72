import Testing

@testable import VoiceLoad

@Suite("The callers: block and the --caller-* flags")
struct CallersBlockTests {
    private let steps = "steps:\n  - connect\n"

    @Test("the block reads beds, SNR, gain and rate; shipped beds are found beside the scenario")
    func reads() throws {
        let yaml = "callers:\n  noise: {beds: [babble, road, pink], snr_db: [10, 20]}\n  gain_db: [-6, 6]\n  rate: [0.8, 1.2]\n" + steps
        let path = repositoryRoot() + "/scenarios/demo.yaml"
        let variation = try #require(try ScenarioLoader.parse(yaml: yaml, path: path).callers)
        #expect(variation.noiseBeds == ["babble", "road", "pink"])
        #expect(variation.bedPaths["road"] == repositoryRoot() + "/scenarios/audio/noise/road.wav")
        #expect(variation.snrDb == 10...20 && variation.gainDb == -6...6 && variation.speakingRate == 0.8...1.2)
        #expect(variation.summary == "noise babble|road|pink at 10–20 dB SNR · gain -6–6 dB · rate 0.8–1.2")
        let single = try #require(
            try ScenarioLoader.parse(yaml: "callers: {noise: {beds: noise.wav, snr_db: 15}, rate: 1.1}\n" + steps, path: path).callers
        )
        #expect(single.noiseBeds == ["noise"] && single.bedPaths["noise"] == repositoryRoot() + "/scenarios/noise.wav")
        #expect(single.snrDb == 15...15 && single.gainDb == 0...0 && single.speakingRate == 1.1...1.1)
        #expect(try ScenarioLoader.parse(yaml: steps, path: path).callers == nil)
    }

    @Test(
        "a bad block is one line naming the place",
        arguments: [
            ("callers: 3\n", "x.yaml:1:10: 'callers' must be a mapping"),
            ("callers: {voices: 3}\n", "x.yaml:1:11: unknown field of 'callers' 'voices' (known: noise, gain_db, rate)"),
            ("callers: {noise: {beds: [babble]}}\n", "x.yaml:1:18: 'callers.noise' needs 'beds'"),
            (
                "callers: {noise: {beds: [crowd], snr_db: 10}}\n",
                "x.yaml:1:25: unknown noise bed 'crowd' (shipped: babble, road, pink; or a .wav file)"
            ),
            ("callers: {noise: {beds: [pink, pink], snr_db: 10}}\n", "x.yaml:1:25: noise bed 'pink' is named twice"),
            (
                "callers: {noise: {beds: [pink], snr_db: [20, 10]}}\n",
                "x.yaml:1:41: 'callers.noise.snr_db' must be a number or [min, max] with min ≤ max, within -10–60 (got [20, 10])"
            ),
            (
                "callers: {rate: [0.4, 1]}\n",
                "x.yaml:1:17: 'callers.rate' must be a number or [min, max] with min ≤ max, within 0.5–2 (got [0.4, 1])"
            ),
            ("callers: {gain_db: [1, 2, 3]}\n", "x.yaml:1:20: 'callers.gain_db' must be a number or [min, max]"),
            (
                "callers: {gain_db: loud}\n",
                "x.yaml:1:20: 'callers.gain_db' must be a number or [min, max] with min ≤ max, within -40–20 (got loud)"
            ),
        ]
    )
    func errors(yaml: String, expected: String) {
        #expect {
            try ScenarioLoader.parse(yaml: yaml + steps, path: "x.yaml")
        } throws: { error in
            String(describing: error).hasPrefix(expected)
        }
    }

    @Test("the flags override the block, take negative ranges, and need noise with an SNR")
    func flags() throws {
        let base = CallerVariation(noiseBeds: ["pink"], snrDb: 10...10)
        #expect(try CallerVariation.overriding(base, noise: nil, snrDb: nil, gainDb: nil, rate: nil, directory: "") == base)
        #expect(try CallerVariation.overriding(nil, noise: nil, snrDb: nil, gainDb: nil, rate: nil, directory: "") == nil)
        let flagged = try #require(
            try CallerVariation.overriding(nil, noise: "babble,road", snrDb: "10:20", gainDb: "-6:6", rate: "0.8:1.2", directory: "s")
        )
        #expect(
            flagged.noiseBeds == ["babble", "road"] && flagged.snrDb == 10...20 && flagged.gainDb == -6...6
                && flagged.speakingRate == 0.8...1.2
        )
        let quiet = try #require(try CallerVariation.overriding(base, noise: "none", snrDb: nil, gainDb: "3", rate: nil, directory: ""))
        #expect(quiet.noiseBeds.isEmpty && quiet.gainDb == 3...3 && quiet.variesCallers)
        // Draws are to 0.01: so are the bounds.
        #expect(try CallerVariation.range("0.804:1.206", field: "x", within: 0.5...2) == 0.8...1.21)
        let failures: [(String?, String?, String?, String)] = [
            (nil, "10", nil, "--caller-snr-db needs noise: --caller-noise babble,road,pink (or the scenario's callers.noise)"),
            ("pink", nil, nil, "--caller-noise needs --caller-snr-db (10, or a range 10:20)"),
            ("street", "10", nil, "--caller-noise: unknown noise bed 'street' (shipped: babble, road, pink; or a .wav file)"),
            (nil, nil, "1:x", "--caller-rate must be a number or min:max with min ≤ max, within 0.5–2 (got 1:x)"),
        ]
        for (noise, snr, rate, message) in failures {
            #expect {
                try CallerVariation.overriding(nil, noise: noise, snrDb: snr, gainDb: nil, rate: rate, directory: "")
            } throws: { error in
                (error as? InputError)?.message == message
            }
        }
    }
}
