import Foundation
import VoiceLoad
import WSCore

/// The simulator's online energy VAD: finds where the user's speech starts and ends in the
/// incoming stream, and *when* that was, on the stream's own clock.
///
/// A window is voiced by `VoicingRule`, the rule vload's truth is found by, against the loudest
/// window heard since the last end of speech (in a clip of one utterance: the clip's loudest,
/// once its speech has been heard), so the end of speech it hears in a clean clip is the one
/// the caller measures from (docs/callers.md). A run of voiced windows shorter than the rule's
/// `minSpeechMs` is a click and does not move the end of speech; a turn starts after
/// `minSpeechMs` of the detector's own. A window the run tells of as a caller's noise heard
/// alone (`NoiseWindows`, in vload's own process) is silence to it.
///
/// A frame is taken to arrive no earlier than its last sample was spoken (microphone pacing),
/// so the stream began at most `A − p` before, for a frame ending at position p that arrived
/// at A. The earliest such moment over the frames so far anchors the stream, and sample s
/// was spoken at `anchor + s/rate`. A frame the caller sent late, or that waited in a socket
/// buffer, therefore does not move the end of speech, and the injected reply latency counts
/// from the moment the speech really ended, as a caller's first-audio latency does. A frame
/// more than `gapUs` behind the anchor's schedule means the caller paused its stream (not
/// every client streams silence): the stream is anchored anew on it.
struct StreamingSpeechDetector: Sendable {
    enum Event: Sendable, Hashable {
        /// Speech began at `at`, `audioMs` into the stream (detected `minSpeech` later).
        case speechStarted(at: MonotonicInstant, audioMs: Int)
        /// Speech ended at `at`, `audioMs` into the stream (detected a silence window later).
        case speechEnded(at: MonotonicInstant, audioMs: Int)
    }

    let format: AudioFormat
    let windows: VoicingRule.Windows
    let minSpeechWindows: Int
    let silenceWindows: Int

    private var windowSumOfSquares: Int64 = 0
    /// Where the run says its callers' noise is heard alone; nil: nowhere.
    let noise: NoiseWindows?
    /// The current window's bytes so far, hashed (only with `noise`).
    private var windowHash = WindowHash()
    /// The loudest window since the stream began or speech last ended.
    private var loudestSumOfSquares: Int64 = 0
    private var windowFill = 0
    private var inSpeech = false
    private var voicedRun = 0
    private var voicedRunStartAt: MonotonicInstant?
    private var silentRun = 0
    private var lastVoicedEndAt: MonotonicInstant?
    private var lastVoicedEndSample = 0
    private var voicedRunStartSample = 0
    /// Samples of the stream processed so far.
    private var samplesSeen = 0
    /// When the stream's first sample was spoken, at the latest (see above).
    private var anchor: MonotonicInstant?
    /// Lateness beyond which a frame starts the stream's clock over (a pause, not jitter).
    static let gapUs: Int64 = 100_000

    init(format: AudioFormat, rule: VoicingRule = VoicingRule(), minSpeechMs: Int, silenceMs: Int, noise: NoiseWindows? = nil) {
        self.format = format
        self.noise = noise
        self.windows = rule.windows(rateHz: format.sampleRateHz)
        let windowMs = max(1, rule.windowMs)
        self.minSpeechWindows = max(1, minSpeechMs / windowMs)
        self.silenceWindows = max(1, silenceMs / windowMs)
    }

    private var windowSamples: Int { windows.samples }

    var isInSpeech: Bool { inSpeech }

    /// While in speech: where the voiced audio heard so far ended (the end of speech, should
    /// no more speech follow); nil outside speech.
    var voicedEndSoFar: MonotonicInstant? { inSpeech ? lastVoicedEndAt : nil }

    /// While in speech: where in the stream the voiced audio heard so far ended, in ms.
    var voicedEndAudioMs: Int? { inSpeech ? milliseconds(lastVoicedEndSample) : nil }

    /// How much audio the stream has carried so far.
    var audioPositionMs: Int { milliseconds(samplesSeen) }

    /// Feeds one frame of encoded audio that arrived at `arrivedAt`.
    mutating func process(_ bytes: [UInt8], arrivedAt: MonotonicInstant) -> [Event] {
        let sampleCount = bytes.count / format.bytesPerSample
        guard sampleCount > 0 else { return [] }
        let sampleUs = 1_000_000.0 / Double(format.sampleRateHz)
        let frameAnchor = arrivedAt.advanced(byMicroseconds: -Int64(Double(samplesSeen + sampleCount) * sampleUs))
        let anchor: MonotonicInstant
        if let current = self.anchor, frameAnchor.microseconds(since: current) <= Self.gapUs {
            anchor = min(current, frameAnchor)
        } else {
            anchor = frameAnchor  // the first frame, or the stream paused: it starts over here
        }
        self.anchor = anchor
        var events: [Event] = []
        bytes.withUnsafeBufferPointer { bytes in
            var index = 0
            while index < sampleCount {
                // The rest of the current window, or of the frame: summed in integers (exact).
                let take = min(windowSamples - windowFill, sampleCount - index)
                windowSumOfSquares += AudioLevel.sumOfSquares(bytes, from: index, count: take, encoding: format.encoding)
                if let noise, noise.isTelling {
                    let width = format.bytesPerSample
                    windowHash.add(bytes[(index * width)..<((index + take) * width)])
                }
                windowFill += take
                samplesSeen += take
                index += take
                guard windowFill == windowSamples else { continue }
                let endAt = anchor.advanced(byMicroseconds: Int64(Double(samplesSeen) * sampleUs))
                let startAt = endAt.advanced(byMicroseconds: -Int64(Double(windowSamples) * sampleUs))
                let noiseAlone = noise.map { $0.isTelling && $0.isNoise(windowHash.value) } ?? false
                windowHash = WindowHash()
                if !noiseAlone { loudestSumOfSquares = max(loudestSumOfSquares, windowSumOfSquares) }
                let voiced = !noiseAlone && windows.isVoiced(sumOfSquares: windowSumOfSquares, loudestSumOfSquares: loudestSumOfSquares)
                windowSumOfSquares = 0
                windowFill = 0
                if let event = closeWindow(voiced: voiced, startAt: startAt, endAt: endAt) { events.append(event) }
            }
        }
        return events
    }

    private mutating func closeWindow(voiced: Bool, startAt: MonotonicInstant, endAt: MonotonicInstant) -> Event? {
        if voiced {
            if voicedRun == 0 {
                voicedRunStartAt = startAt
                voicedRunStartSample = samplesSeen - windowSamples
            }
            voicedRun += 1
            // Speech, not a click (or a turn starting): the end of speech moves.
            if voicedRun >= windows.minSpeechWindows || (!inSpeech && voicedRun >= minSpeechWindows) {
                silentRun = 0
                lastVoicedEndAt = endAt
                lastVoicedEndSample = samplesSeen
            }
            if !inSpeech, voicedRun >= minSpeechWindows, let voicedRunStartAt {
                inSpeech = true
                return .speechStarted(at: voicedRunStartAt, audioMs: milliseconds(voicedRunStartSample))
            }
            return nil
        }
        voicedRun = 0
        guard inSpeech else { return nil }
        silentRun += 1
        if silentRun >= silenceWindows, let lastVoicedEndAt {
            inSpeech = false
            silentRun = 0
            loudestSumOfSquares = 0
            return .speechEnded(at: lastVoicedEndAt, audioMs: milliseconds(lastVoicedEndSample))
        }
        return nil
    }

    private func milliseconds(_ samples: Int) -> Int {
        samples * 1_000 / format.sampleRateHz
    }
}
