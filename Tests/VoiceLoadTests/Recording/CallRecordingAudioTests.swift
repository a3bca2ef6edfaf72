import Foundation
import Testing

@testable import VoiceLoad

@Suite("Recordings: the stereo WAV")
struct CallRecordingAudioTests {
    typealias Fixture = RecordingFixture

    /// Connect at 0, end at 1 s. The caller's clip (80 ms of 1000s) starts at 100 ms; the agent's
    /// first chunk (40 ms of -2000s) plays at 300 ms, its second, arriving after a stall, at
    /// 400 ms and is cut by a flush at 420 ms; a third, the interrupted turn's tail, is not queued.
    static func call(agentRateHz: Int = 16_000) -> FinishedCall {
        var recording = CallRecording(client: 3, iteration: 1)
        recording.connectStarted(at: Fixture.at(0))
        recording.ready(at: Fixture.at(50))
        recording.clipStarted(Fixture.clip(1_000, frameCount: 2), at: Fixture.at(100))
        recording.turnEmitted(Fixture.turn(1, speechStartMs: 100, firstAudioMs: 120))
        var capture = AgentAudioCapture(maxCapturedBytes: 1_000_000)
        let chunk = AgentAudioChunk(audio: Fixture.pcm(-2_000, durationMs: 40, rateHz: agentRateHz), format: .pcm16(agentRateHz))
        capture.chunkArrived(chunk, at: Fixture.at(300), drainsBefore: nil, drainsAfter: Fixture.at(340), turn: 1)
        capture.chunkArrived(chunk, at: Fixture.at(400), drainsBefore: Fixture.at(340), drainsAfter: Fixture.at(440), turn: 1)
        capture.flushed(at: Fixture.at(420))
        capture.chunkArrived(chunk, at: Fixture.at(430), drainsBefore: Fixture.at(420), drainsAfter: Fixture.at(420), turn: 1)
        recording.microphoneStopped(at: Fixture.at(900))
        recording.attemptEnded(agentAudio: capture)
        return recording.finished(session: SessionRecord(client: 3, iteration: 1), endedAt: Fixture.at(1_000))!
    }

    @Test("its length is the call's, connect to end; the clip and the agent's audio sit where they played, cut at the flush")
    func layout() throws {
        let audio = CallRecordingAudio(Self.call())
        #expect(audio.sampleRateHz == 16_000)
        #expect(audio.left.count == 16_000)
        #expect(audio.right.count == 16_000)
        // Left: the clip at 100–180 ms, silence around it.
        #expect(audio.left[1_599] == 0)
        #expect(audio.left[1_600..<2_880].allSatisfy { $0 == 1_000 })
        #expect(audio.left[2_880] == 0)
        // Right: 300–340 ms, the stall's silence to 400 ms, 400–420 ms (the flush), nothing after.
        #expect(audio.right[4_800..<5_440].allSatisfy { $0 == -2_000 })
        #expect(audio.right[5_440..<6_400].allSatisfy { $0 == 0 })
        #expect(audio.right[6_400..<6_720].allSatisfy { $0 == -2_000 })
        #expect(audio.right[6_720...].allSatisfy { $0 == 0 })
        #expect(audio.left[4_800..<6_720].allSatisfy { $0 == 0 })
    }

    @Test("the marks: ready, the end of speech, first audio and the stall, in ms since the connect")
    func marks() {
        let marks = CallMarks(Self.call(), reasons: ["worst"], sampleRateHz: 16_000)
        #expect(
            marks.marks == [
                CallMark(.ready, ms: 50),
                CallMark(.speechEnd, ms: 180, turn: 1),
                CallMark(.firstAudio, ms: 300, turn: 1),
                CallMark(.stall, ms: 340, untilMs: 400),
            ]
        )
        #expect(marks.clips == [CallMarks.Clip(ms: 100, source: "test.wav", speechStartMs: 0, speechEndMs: 80)])
        #expect(marks.durationMs == 1_000)
        #expect(marks.wav == "client-3-iteration-1.wav")
        #expect(marks.slowestFirstAudioFromEndMs == 120)
    }

    @Test("sides at two rates are written at the higher, the length still the call's within one frame")
    func twoRates() {
        let audio = CallRecordingAudio(Self.call(agentRateHz: 24_000))
        #expect(audio.sampleRateHz == 24_000)
        #expect(abs(audio.left.count - 24_000) <= 1)
        #expect(audio.right.count == audio.left.count)
        // The clip (resampled from 16 kHz) still holds its level in the middle, and starts at 100 ms.
        let middle = audio.left[2_600..<4_100].map { Double($0) }
        #expect(abs(middle.reduce(0, +) / Double(middle.count) - 1_000) < 10)
        #expect(audio.left[0..<2_200].allSatisfy { abs($0) < 20 })
        #expect(audio.right[7_200..<8_160].allSatisfy { $0 == -2_000 })
    }

    @Test("a WebRTC call: both sides at 48 kHz, left the clip's PCM as it went to the Opus encoder, right the decoded agent")
    func webRTCCall() {
        // pipecat-webrtc's clip: five 20 ms frames of 1000s at 48 kHz, Opus-encoded for the wire
        // (FrameSet); the agent's Opus decoded to 48 kHz PCM, 40 ms of -2000s at 300 ms.
        let utterance = PreparedUtterance(
            format: .pcm16(48_000),
            frameMs: 20,
            frames: Array(repeating: Fixture.pcm(1_000, durationMs: 20, rateHz: 48_000), count: 5),
            boundaries: SpeechBoundaries(speechStartUs: 0, speechEndUs: 100_000),
            sourcePath: "test.wav"
        )
        var recording = CallRecording(client: 0, iteration: 0)
        recording.connectStarted(at: Fixture.at(0))
        recording.clipStarted(FrameSet(utterance: utterance, dialect: PipecatWebRTCClientDialect()), at: Fixture.at(100))
        var capture = AgentAudioCapture(maxCapturedBytes: 1_000_000)
        let chunk = AgentAudioChunk(audio: Fixture.pcm(-2_000, durationMs: 40, rateHz: 48_000), format: .pcm16(48_000))
        capture.chunkArrived(chunk, at: Fixture.at(300), drainsBefore: nil, drainsAfter: Fixture.at(340), turn: 1)
        recording.attemptEnded(agentAudio: capture)
        let audio = CallRecordingAudio(recording.finished(session: SessionRecord(client: 0, iteration: 0), endedAt: Fixture.at(1_000))!)
        #expect(audio.sampleRateHz == 48_000)
        #expect(audio.left.count == 48_000 && audio.right.count == 48_000)
        #expect(audio.left[4_799] == 0 && audio.left[9_600] == 0)
        #expect(audio.left[4_800..<9_600].allSatisfy { $0 == 1_000 })
        #expect(audio.right[14_400..<16_320].allSatisfy { $0 == -2_000 })
        #expect(audio.right[..<14_400].allSatisfy { $0 == 0 } && audio.right[16_320...].allSatisfy { $0 == 0 })
    }

    @Test("the WAV file: RIFF PCM, 2 channels, 16 bits, left then right in each frame")
    func wavFile() {
        let bytes = StereoWAV.bytes(left: [1, 2, 3], right: [-1, -2, -3], sampleRateHz: 16_000)
        #expect(bytes.count == StereoWAV.headerBytes + 12)
        #expect(Array(bytes[0..<4]) == Array("RIFF".utf8))
        #expect(Array(bytes[8..<16]) == Array("WAVEfmt ".utf8))
        func u16(_ offset: Int) -> Int { Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 }
        func u32(_ offset: Int) -> Int { u16(offset) | u16(offset + 2) << 16 }
        #expect(u32(4) == 36 + 12)
        #expect(u16(20) == 1)
        #expect(u16(22) == 2)
        #expect(u32(24) == 16_000)
        #expect(u32(28) == 64_000)
        #expect(u16(32) == 4)
        #expect(u16(34) == 16)
        #expect(Array(bytes[36..<40]) == Array("data".utf8))
        #expect(u32(40) == 12)
        #expect(Array(bytes[44...]) == [1, 0, 0xFF, 0xFF, 2, 0, 0xFE, 0xFF, 3, 0, 0xFD, 0xFF])
    }

    @Test("the WAV file: the shorter channel padded with silence, either side")
    func wavFilePadding() {
        let leftLonger = StereoWAV.bytes(left: [1, -32_768, 32_767], right: [-1], sampleRateHz: 48_000)
        #expect(Array(leftLonger[44...]) == [1, 0, 0xFF, 0xFF, 0x00, 0x80, 0, 0, 0xFF, 0x7F, 0, 0])
        let rightLonger = StereoWAV.bytes(left: [], right: [5, 6], sampleRateHz: 48_000)
        #expect(Array(rightLonger[44...]) == [0, 0, 5, 0, 0, 0, 6, 0])
        #expect(StereoWAV.bytes(left: [], right: [], sampleRateHz: 48_000).count == StereoWAV.headerBytes)
    }
}
