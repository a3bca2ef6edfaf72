import Testing

@testable import VoiceLoad

/// `OpusPacketDecoder` answers a packet that repeats a settled silence without libopus: every
/// sample it returns, and every sample of what follows, must be what a decoder that decoded
/// every packet returns.
@Suite("Opus: a settled silence answered without libopus")
struct OpusSettledSilenceTests {
    /// hello.wav's packets at libopus's default bitrate (hybrid, as vload's callers and the
    /// simulator's replies) and at aiortc's 96 kbit/s (CELT, as a Pipecat bot's replies).
    private static func speech(bitsPerSecond: Int?) throws -> [[UInt8]] {
        let source = try WAVReader.read(path: repositoryRoot() + "/scenarios/audio/hello.wav")
        let samples = try Resampler.resample(source, toRateHz: OpusClip.sampleRateHz).samples
        var encoder = try OpusFrameEncoder()
        if let bitsPerSecond { try encoder.setBitrate(bitsPerSecond: bitsPerSecond) }
        return try stride(from: 0, to: samples.count - OpusClip.frameSamples, by: OpusClip.frameSamples).map {
            try encoder.encode(samples[$0..<($0 + OpusClip.frameSamples)])
        }
    }

    /// 20 ms of digital silence from a fresh encoder: at 96 kbit/s the 3-byte CELT silent frame
    /// a Pipecat bot streams between turns; at libopus's default a hybrid packet.
    private static func silence(bitsPerSecond: Int?) throws -> [UInt8] {
        var encoder = try OpusFrameEncoder()
        if let bitsPerSecond { try encoder.setBitrate(bitsPerSecond: bitsPerSecond) }
        return try encoder.encode([Int16](repeating: 0, count: OpusClip.frameSamples)[...])
    }

    /// Decodes `packets` with and without the shortcut, as samples and as PCM16 bytes (the
    /// caller's and the simulator's way, with a pre-skip); the samples of each packet must match.
    private static func compare(_ packets: [[UInt8]], label: String) throws -> Int {
        var reference = try OpusPacketDecoder(skipsSettledSilence: false)
        var decoder = try OpusPacketDecoder()
        var byteDecoder = try OpusPacketDecoder()
        var expectedStream: [Int16] = []
        var byteStream: [UInt8] = []
        var preSkip = 312
        for (index, packet) in packets.enumerated() {
            let expected = try reference.decode(packet)
            let got = try decoder.decode(packet)
            byteStream += try byteDecoder.decodePCM16(packet, preSkip: &preSkip)
            expectedStream += expected
            guard got == expected else {
                Issue.record("\(label): packet \(index) of \(packets.count) decoded differently")
                return decoder.settledSilencePackets
            }
        }
        #expect(preSkip == 0)
        #expect(byteStream == Array(expectedStream.dropFirst(312)).withUnsafeBytes { Array($0) }, "\(label): as PCM16 bytes")
        #expect(byteDecoder.settledSilencePackets == decoder.settledSilencePackets)
        return decoder.settledSilencePackets
    }

    @Test("digital silence is every byte zero, whatever the length")
    func digitalSilence() {
        for length in [0, 1, 7, 8, 9, 1_920, 1_923] {
            let zeros = [UInt8](repeating: 0, count: length)
            #expect(AudioLevel.isDigitalSilence(zeros))
            for position in Set([0, length / 2, length - 1]) where length > 0 {
                var one = zeros
                one[position] = 1
                #expect(!AudioLevel.isDigitalSilence(one), "length \(length), a 1 at \(position)")
            }
        }
    }

    @Test("the 3-byte CELT silent frame is f8 ff fe, as aiortc sends it")
    func silentFrame() throws {
        #expect(try Self.silence(bitsPerSecond: 96_000) == [0xF8, 0xFF, 0xFE])
    }

    @Test(
        "speech, N silent frames, speech, N, speech: every sample as libopus decodes every packet",
        arguments: [0, 1, 2, 3, 4, 5, 6, 8, 13, 50, 300]
    )
    func runs(silentFrames: Int) throws {
        let quiet = try Self.silence(bitsPerSecond: 96_000)
        let run = [[UInt8]](repeating: quiet, count: silentFrames)
        for bitsPerSecond in [nil, 96_000] {
            let speech = try Self.speech(bitsPerSecond: bitsPerSecond)
            let half = speech.count / 2
            // Cut mid-word too: a silence after a loud frame leaves the longest tail.
            let stream = Array(speech[..<half]) + run + Array(speech[half...]) + run + speech + run
            let skipped = try Self.compare(stream, label: "\(bitsPerSecond.map(String.init) ?? "default") bit/s, \(silentFrames) silent")
            // Skipping starts once a run has decoded to zeros four times in a row; the first
            // silent frame after speech still carries the speech's tail.
            if silentFrames >= 8 { #expect(skipped > 0, "\(silentFrames) silent frames, nothing skipped") }
            if silentFrames <= 4 { #expect(skipped == 0) }
        }
    }

    @Test("the comparison can fail: a decoder never given the silent frames decodes the speech after them differently")
    func comparisonHasTeeth() throws {
        let quiet = try Self.silence(bitsPerSecond: 96_000)
        for bitsPerSecond in [nil, 96_000] {
            let speech = try Self.speech(bitsPerSecond: bitsPerSecond)
            let half = speech.count / 2
            var reference = try OpusPacketDecoder(skipsSettledSilence: false)
            var skipper = try OpusPacketDecoder(skipsSettledSilence: false)
            for packet in speech[..<half] {
                _ = try reference.decode(packet)
                _ = try skipper.decode(packet)
            }
            for _ in 0..<10 { _ = try reference.decode(quiet) }
            var differing = 0
            for packet in speech[half...] where try reference.decode(packet) != skipper.decode(packet) { differing += 1 }
            #expect(differing > 0, "\(bitsPerSecond.map(String.init) ?? "default") bit/s")
        }
    }

    @Test("a silence that does not decode to zeros (libopus's default bitrate) is always decoded")
    func hybridSilence() throws {
        let quiet = try Self.silence(bitsPerSecond: nil)
        let speech = try Self.speech(bitsPerSecond: nil)
        let stream = speech + [[UInt8]](repeating: quiet, count: 60) + speech
        #expect(try Self.compare(stream, label: "hybrid silence") == 0)
    }

    @Test("two silent packets taking turns are never a settled silence: each is decoded")
    func alternating() throws {
        let celt = try Self.silence(bitsPerSecond: 96_000)
        let other = try Self.silence(bitsPerSecond: 64_000)
        let speech = try Self.speech(bitsPerSecond: 96_000)
        let stream = speech + (0..<40).map { $0 % 2 == 0 ? celt : other } + speech
        let skipped = try Self.compare(stream, label: "alternating")
        #expect(celt == other || skipped == 0)
    }
}
