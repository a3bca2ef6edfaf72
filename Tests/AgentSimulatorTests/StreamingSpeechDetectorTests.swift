import Foundation
import Testing
import VoiceLoad
import WSCore

@testable import AgentSimulator

@Suite("StreamingSpeechDetector")
struct StreamingSpeechDetectorTests {
    private func instant(_ us: Int64) -> MonotonicInstant { MonotonicInstant(nanoseconds: 1_000_000_000 + UInt64(us) * 1_000) }

    /// `samples` PCM16 samples, loud from `loudFrom` up to `loudUntil` (sample indices).
    private func bytes(count: Int, loudFrom: Int, loudUntil: Int) -> [UInt8] {
        (0..<count).flatMap { index -> [UInt8] in
            let loud = index >= loudFrom && index < loudUntil
            let bits = UInt16(bitPattern: loud ? (index % 16 < 8 ? 6_000 : -6_000) : 0)
            return [UInt8(bits & 0xFF), UInt8(bits >> 8)]
        }
    }

    /// Feeds `frames` silent 40 ms frames, 40 ms apart, the first arriving at `us`.
    private func silence(
        _ detector: inout StreamingSpeechDetector,
        frames: Int,
        firstArrivingAt us: Int64
    ) -> [StreamingSpeechDetector.Event] {
        (0..<frames).flatMap { index in
            detector.process(bytes(count: 640, loudFrom: 0, loudUntil: 0), arrivedAt: instant(us + 40_000 * Int64(index)))
        }
    }

    @Test("speech end is placed inside the frame by the arrival time of the frame's last sample")
    func endTime() {
        var detector = StreamingSpeechDetector(format: .pcm16(16_000), minSpeechMs: 30, silenceMs: 100)
        // Frame 1 (40 ms, arrives at 40 ms): speech from 0; frame 2 (arrives at 80 ms): speech ends at 20 ms in.
        var events = detector.process(bytes(count: 640, loudFrom: 0, loudUntil: 640), arrivedAt: instant(40_000))
        #expect(events == [.speechStarted(at: instant(0), audioMs: 0)])
        events = detector.process(bytes(count: 640, loudFrom: 0, loudUntil: 320), arrivedAt: instant(80_000))
        #expect(events.isEmpty)
        events += silence(&detector, frames: 3, firstArrivingAt: 120_000)
        #expect(events == [.speechEnded(at: instant(60_000), audioMs: 60)])
    }

    @Test("a click shorter than the minimum speech is ignored")
    func click() {
        var detector = StreamingSpeechDetector(format: .pcm16(16_000), minSpeechMs: 60, silenceMs: 100)
        let events = detector.process(bytes(count: 1_600, loudFrom: 0, loudUntil: 320), arrivedAt: instant(100_000))
        #expect(events.isEmpty && !detector.isInSpeech)
    }

    @Test("a late frame does not move the end of speech: it is placed on the stream's clock")
    func lateFrame() {
        var detector = StreamingSpeechDetector(format: .pcm16(16_000), minSpeechMs: 30, silenceMs: 100)
        _ = detector.process(bytes(count: 640, loudFrom: 0, loudUntil: 640), arrivedAt: instant(40_000))
        // The frame where speech ends arrives 7 ms late, the silence after it later still.
        var events = detector.process(bytes(count: 640, loudFrom: 0, loudUntil: 320), arrivedAt: instant(87_000))
        events += silence(&detector, frames: 3, firstArrivingAt: 129_000)
        #expect(events == [.speechEnded(at: instant(60_000), audioMs: 60)])
    }

    @Test("a stream that pauses longer than the gap is timed from where it resumes")
    func pausedStream() {
        var detector = StreamingSpeechDetector(format: .pcm16(16_000), minSpeechMs: 30, silenceMs: 100)
        _ = detector.process(bytes(count: 640, loudFrom: 0, loudUntil: 0), arrivedAt: instant(40_000))
        // Nothing for a second, then speech: the stream's clock starts over with it.
        var events = detector.process(bytes(count: 640, loudFrom: 0, loudUntil: 640), arrivedAt: instant(1_080_000))
        #expect(events == [.speechStarted(at: instant(1_040_000), audioMs: 40)])
        events = detector.process(bytes(count: 640, loudFrom: 0, loudUntil: 320), arrivedAt: instant(1_120_000))
        events += silence(&detector, frames: 3, firstArrivingAt: 1_160_000)
        #expect(events == [.speechEnded(at: instant(1_100_000), audioMs: 100)])
    }

    /// A tone at `amplitude` of full scale for `samples` samples.
    private func tone(_ samples: Int, amplitude: Double) -> [Int16] {
        (0..<samples).map { Int16((amplitude * 32_767 * sin(Double($0) * 2 * .pi * 440 / 16_000)).rounded()) }
    }

    @Test(
        "the simulator hears speech end where the truth puts it (VoicingRule), wherever in a window the speech ends",
        arguments: [0, 7, 80, 159]
    )
    func agreesWithTheTruth(extraSamples: Int) throws {
        // Loud speech, then a tail at -41 dBFS RMS: above the -45 dBFS the simulator once
        // voiced, but more than 30 dB under the loudest window, so not speech by the rule.
        let loudSamples = 8_000 + extraSamples
        let clip = tone(loudSamples, amplitude: 0.9) + tone(800, amplitude: 0.0126) + [Int16](repeating: 0, count: 3_200)
        let truth = try #require(SpeechDetector().boundaries(of: clip, sampleRateHz: 16_000))
        let endUs = Int64((loudSamples + 159) / 160) * 10_000
        #expect(truth.speechEndUs == endUs)
        var detector = StreamingSpeechDetector(format: .pcm16(16_000), minSpeechMs: 60, silenceMs: 100)
        var bytes = clip.flatMap { [UInt8(UInt16(bitPattern: $0) & 0xFF), UInt8(UInt16(bitPattern: $0) >> 8)] }
        bytes += [UInt8](repeating: 0, count: (1_280 - bytes.count % 1_280) % 1_280 + 12_800)  // whole frames, then silence
        var events: [StreamingSpeechDetector.Event] = []
        for frame in 0..<(bytes.count / 1_280) {
            events += detector.process(Array(bytes[(frame * 1_280)..<((frame + 1) * 1_280)]), arrivedAt: instant(40_000 * Int64(frame + 1)))
        }
        #expect(events == [.speechStarted(at: instant(0), audioMs: 0), .speechEnded(at: instant(endUs), audioMs: Int(endUs / 1_000))])
    }

    @Test("a window is voiced within 30 dB of the loudest and above -50 dBFS, by the same sums on both sides")
    func rule() {
        let windows = VoicingRule().windows(rateHz: 16_000)
        #expect(windows.samples == 160 && windows.minSpeechWindows == 3)
        let loudest: Int64 = 160 * 16_000 * 16_000
        #expect(windows.isVoiced(sumOfSquares: loudest / 1_000, loudestSumOfSquares: loudest))
        #expect(!windows.isVoiced(sumOfSquares: loudest / 1_000 - 1, loudestSumOfSquares: loudest))
        // -50 dBFS is 103.6 of 32,768: 100² per sample is below the floor even as the loudest.
        #expect(!windows.isVoiced(sumOfSquares: 160 * 100 * 100, loudestSumOfSquares: 160 * 100 * 100))
        #expect(windows.isVoiced(sumOfSquares: 160 * 104 * 104, loudestSumOfSquares: 160 * 104 * 104))
    }

    /// Frames of 40 ms of `samples` (PCM16, 16 kHz), the last padded with silence.
    private func frames(_ samples: [Int16]) -> [[UInt8]] {
        var bytes = samples.flatMap { [UInt8(UInt16(bitPattern: $0) & 0xFF), UInt8(UInt16(bitPattern: $0) >> 8)] }
        bytes += [UInt8](repeating: 0, count: (1_280 - bytes.count % 1_280) % 1_280)
        return (0..<(bytes.count / 1_280)).map { Array(bytes[($0 * 1_280)..<(($0 + 1) * 1_280)]) }
    }

    @Test("told where a caller's noise is heard alone, the simulator hears speech end where the clean clip's does")
    func toldNoise() throws {
        // A clean clip: 100 ms of silence, 500 ms of speech, 400 ms of silence; then the same
        // with noise 20 dB under the speech over all of it.
        let clean = [Int16](repeating: 0, count: 1_600) + tone(8_000, amplitude: 0.5) + [Int16](repeating: 0, count: 6_400)
        var generator = SeededGenerator(seed: 7)
        let noisy = clean.map { Int16(clamping: Int($0) + Int.random(in: -1_100...1_100, using: &generator)) }
        let truth = try #require(SpeechDetector().boundaries(of: clean, sampleRateHz: 16_000))
        #expect(truth == SpeechBoundaries(speechStartUs: 100_000, speechEndUs: 600_000))
        let utterance = PreparedUtterance(format: .pcm16(16_000), frameMs: 40, frames: frames(noisy), boundaries: truth, sourcePath: "noisy")
        let noise = NoiseWindows()
        noise.tell(utterance)
        #expect(noise.count == 10 + 40)  // the windows before 100 ms and from 600 ms to the clip's end

        func heard(_ noise: NoiseWindows?) -> [StreamingSpeechDetector.Event] {
            var detector = StreamingSpeechDetector(format: .pcm16(16_000), minSpeechMs: 60, silenceMs: 100, noise: noise)
            let stream = utterance.frames + [[UInt8]](repeating: [UInt8](repeating: 0, count: 1_280), count: 10)
            return stream.enumerated().flatMap { index, frame in detector.process(frame, arrivedAt: instant(40_000 * Int64(index + 1))) }
        }
        #expect(heard(noise) == [.speechStarted(at: instant(100_000), audioMs: 100), .speechEnded(at: instant(600_000), audioMs: 600)])
        // Not told, it hears the noise as speech from the clip's first window to its last.
        #expect(heard(nil) == [.speechStarted(at: instant(0), audioMs: 0), .speechEnded(at: instant(1_000_000), audioMs: 1_000)])
    }
}
