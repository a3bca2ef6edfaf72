import Testing

@testable import VoiceLoad

@Suite("Opus through libopus")
struct OpusClipTests {
    private static let helloPath = repositoryRoot() + "/scenarios/audio/hello.wav"

    /// The clip at 48 kHz, its Opus frames, and those frames decoded again.
    private static func roundTrip() throws -> (original: [Int16], clip: OpusClip, decoded: [Int16], chunks: [AgentAudioChunk]) {
        let source = try WAVReader.read(path: helloPath)
        let original = try Resampler.resample(source, toRateHz: 48_000).samples
        let clip = try OpusClip.encode(source)
        var decoder = try OpusPacketDecoder()
        var decoded: [Int16] = []
        var chunks: [AgentAudioChunk] = []
        for frame in clip.frames {
            let chunk = try decoder.decodeChunk(frame.payload)
            chunks.append(chunk)
            #expect(chunk.durationUs == 20_000)
        }
        var again = try OpusPacketDecoder()
        for frame in clip.frames { decoded += try again.decode(frame.payload) }
        return (original, clip, decoded, chunks)
    }

    @Test("hello.wav: one 20 ms frame per 960 samples at 48 kHz, each a 960-sample RTP step")
    func frames() throws {
        let (original, clip, decoded, _) = try Self.roundTrip()
        #expect(clip.sampleCount == original.count)
        #expect(clip.frames.count == (original.count + 959) / 960)
        #expect(clip.frames.allSatisfy { $0.timestampStepSamples == 960 && !$0.payload.isEmpty && $0.payload.count <= 1_275 })
        #expect(decoded.count == clip.frames.count * 960)
        #expect(clip.durationMs == clip.frames.count * 20)
    }

    @Test("hello.wav decoded: its speech starts and ends within one 20 ms frame of the clip's, at about the same level")
    func decodedSpeech() throws {
        let (original, _, decoded, _) = try Self.roundTrip()
        let detector = SpeechDetector()
        let before = try #require(detector.boundaries(of: original, sampleRateHz: 48_000))
        let after = try #require(detector.boundaries(of: decoded, sampleRateHz: 48_000))
        #expect(abs(after.speechStartUs - before.speechStartUs) <= 20_000)
        #expect(abs(after.speechEndUs - before.speechEndUs) <= 20_000)
        // Within 1 dB over the clip.
        let ratio = AudioLevel.rms(of: decoded[...]) / AudioLevel.rms(of: original[...])
        #expect(ratio > 0.89 && ratio < 1.12, "RMS ratio \(ratio)")
    }

    @Test("the first voiced chunk, by the level rule the caller applies to agent audio, is the clip's first voiced frame or the next")
    func firstVoicedChunk() throws {
        let (original, _, _, chunks) = try Self.roundTrip()
        let voicedLevel = TurnTracker.Configuration().voicedLevel
        let firstVoicedFrame = try #require(
            (0..<((original.count + 959) / 960)).firstIndex { frame in
                Float(AudioLevel.rms(of: original[(frame * 960)..<min(frame * 960 + 960, original.count)])) >= voicedLevel
            }
        )
        let firstVoicedChunk = try #require(chunks.firstIndex { $0.rmsLevel >= voicedLevel })
        #expect(firstVoicedChunk - firstVoicedFrame >= 0 && firstVoicedChunk - firstVoicedFrame <= 1)
    }

    @Test("the encoder's delay is 6.5 ms and its bitrate libopus's default for 20 ms mono")
    func encoderSettings() throws {
        let encoder = try OpusFrameEncoder()
        let lookaheadSamples = encoder.lookaheadSamples
        let bitrateBitsPerSecond = encoder.bitrateBitsPerSecond
        #expect(lookaheadSamples == 312)
        #expect(bitrateBitsPerSecond > 0)
    }

    @Test("a frame of the wrong length and a packet libopus rejects are typed errors")
    func errors() throws {
        var encoder = try OpusFrameEncoder()
        do {
            _ = try encoder.encode([Int16](repeating: 0, count: 959)[...])
            Issue.record("encoded a 959-sample frame")
        } catch {
            #expect(error == .frameLength(sampleCount: 959))
        }
        var decoder = try OpusPacketDecoder()
        // The TOC byte of a code-3 packet (a frame count follows) and nothing more: OPUS_INVALID_PACKET.
        do {
            _ = try decoder.decode([0x03])
            Issue.record("decoded a truncated packet")
        } catch {
            #expect(error == .libopus(function: "opus_decode", code: -4))
        }
        do {
            _ = try decoder.decode([])
            Issue.record("decoded an empty packet")
        } catch {
            #expect(error == .emptyPacket)
        }
    }

    @Test("an 8 kHz clip is resampled to 48 kHz before encoding")
    func otherRates() throws {
        let clip = try OpusClip.encode(AudioClip(samples: [Int16](repeating: 1_000, count: 800), sampleRateHz: 8_000))
        #expect(clip.sampleCount == 4_800)
        #expect(clip.frames.count == 5)
    }
}
