import Foundation
import VoiceLoad

/// The simulator's online energy VAD: finds where the user's speech starts and ends in the
/// incoming stream, and *when* that was, from the arrival time of each frame.
///
/// A frame is taken to arrive when its last sample has been spoken (microphone pacing), so
/// sample j of an n-sample frame that arrived at A was spoken at A − (n − 1 − j)/rate.
struct StreamingSpeechDetector: Sendable {
    enum Event: Sendable, Hashable {
        /// Speech began at `at`, `audioMs` into the stream (detected `minSpeech` later).
        case speechStarted(at: MonotonicInstant, audioMs: Int)
        /// Speech ended at `at`, `audioMs` into the stream (detected a silence window later).
        case speechEnded(at: MonotonicInstant, audioMs: Int)
    }

    let format: AudioFormat
    let windowSamples: Int
    let thresholdSquare: Double
    let minSpeechWindows: Int
    let silenceWindows: Int

    private var windowSumOfSquares: Double = 0
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

    init(format: AudioFormat, thresholdDbfs: Double, minSpeechMs: Int, silenceMs: Int, windowMs: Int = 10) {
        self.format = format
        self.windowSamples = max(1, format.sampleRateHz * windowMs / 1_000)
        let threshold = 32_768 * pow(10, thresholdDbfs / 20)
        self.thresholdSquare = threshold * threshold
        self.minSpeechWindows = max(1, minSpeechMs / windowMs)
        self.silenceWindows = max(1, silenceMs / windowMs)
    }

    var isInSpeech: Bool { inSpeech }

    /// How much audio the stream has carried so far.
    var audioPositionMs: Int { milliseconds(samplesSeen) }

    /// Feeds one frame of encoded audio that arrived at `arrivedAt`.
    mutating func process(_ bytes: [UInt8], arrivedAt: MonotonicInstant) -> [Event] {
        let sampleCount = bytes.count / format.bytesPerSample
        guard sampleCount > 0 else { return [] }
        let sampleUs = 1_000_000.0 / Double(format.sampleRateHz)
        var events: [Event] = []
        bytes.withUnsafeBufferPointer { bytes in
            var index = 0
            while index < sampleCount {
                // The rest of the current window, or of the frame: summed in integers (exact).
                let take = min(windowSamples - windowFill, sampleCount - index)
                windowSumOfSquares += Double(Self.sumOfSquares(bytes, from: index, count: take, encoding: format.encoding))
                windowFill += take
                samplesSeen += take
                index += take
                guard windowFill == windowSamples else { continue }
                let endAt = arrivedAt.advanced(byMicroseconds: -Int64(Double(sampleCount - index) * sampleUs))
                let startAt = endAt.advanced(byMicroseconds: -Int64(Double(windowSamples) * sampleUs))
                let voiced = windowSumOfSquares / Double(windowSamples) > thresholdSquare
                windowSumOfSquares = 0
                windowFill = 0
                if let event = closeWindow(voiced: voiced, startAt: startAt, endAt: endAt) { events.append(event) }
            }
        }
        return events
    }

    /// The sum of the squared samples `start..<start+count` of the frame.
    private static func sumOfSquares(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, count: Int, encoding: SampleEncoding) -> Int64 {
        var sum: Int64 = 0
        switch encoding {
        case .pcm16:
            for index in start..<(start + count) {
                let sample = Int64(Int16(bitPattern: UInt16(bytes[2 * index]) | UInt16(bytes[2 * index + 1]) << 8))
                sum += sample * sample
            }
        case .mulaw:
            for index in start..<(start + count) {
                let sample = Int64(MuLaw.decode(bytes[index]))
                sum += sample * sample
            }
        }
        return sum
    }

    private mutating func closeWindow(voiced: Bool, startAt: MonotonicInstant, endAt: MonotonicInstant) -> Event? {
        if voiced {
            if voicedRun == 0 {
                voicedRunStartAt = startAt
                voicedRunStartSample = samplesSeen - windowSamples
            }
            voicedRun += 1
            silentRun = 0
            lastVoicedEndAt = endAt
            lastVoicedEndSample = samplesSeen
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
            return .speechEnded(at: lastVoicedEndAt, audioMs: milliseconds(lastVoicedEndSample))
        }
        return nil
    }

    private func milliseconds(_ samples: Int) -> Int {
        samples * 1_000 / format.sampleRateHz
    }
}
