// The cost of Opus in vload (BENCHMARKS.md, "Opus at load"): `encode N` encodes every clip of
// scenarios/audio N times as the caller does at load (resampling to 48 kHz included);
// `decode N` decodes N seconds of agent audio (50 packets of 20 ms a second). Prints the CPU
// time of the timed part; under callgrind, N = 2 minus N = 1 is the instructions of one pass.
import Foundation
import VoiceLoad

let arguments = CommandLine.arguments
guard arguments.count == 3, let count = Int(arguments[2]), count > 0, ["encode", "decode"].contains(arguments[1]) else {
    FileHandle.standardError.write("usage: vload-opus-bench encode|decode N   (run in the repository root)\n".data(using: .utf8)!)
    exit(2)
}

func processCPUSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

let folder = "scenarios/audio"
let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".wav") }.sorted()
let clips = try names.map { try WAVReader.read(path: "\(folder)/\($0)") }
let audioSeconds = clips.reduce(0.0) { $0 + $1.durationMs / 1_000 }

if arguments[1] == "encode" {
    var frames = 0
    var bytes = 0
    let start = processCPUSeconds()
    for _ in 0..<count {
        for clip in clips {
            let encoded = try OpusClip.encode(clip)
            frames += encoded.frames.count
            bytes += encoded.frames.reduce(0) { $0 + $1.payload.count }
        }
    }
    let seconds = processCPUSeconds() - start
    print(
        String(
            format: "encode: %d clips, %.2f s of audio, %d frames, %.1f kbps: %.2f ms CPU a pass (%.2f ms per second of audio)",
            clips.count,
            audioSeconds,
            frames / count,
            Double(bytes * 8) / Double(frames) * 50 / 1_000,
            seconds * 1_000 / Double(count),
            seconds * 1_000 / Double(count) / audioSeconds
        )
    )
} else {
    let packets = try clips.flatMap { try OpusClip.encode($0).frames.map(\.payload) }
    var decoder = try OpusPacketDecoder()
    var voiced = 0
    let start = processCPUSeconds()
    for index in 0..<(50 * count) {
        let chunk = try decoder.decodeChunk(packets[index % packets.count])
        if chunk.rmsLevel >= 0.01 { voiced += 1 }
    }
    let seconds = processCPUSeconds() - start
    print(
        String(
            format: "decode: %d s of agent audio (%d packets, %d voiced): %.3f ms CPU a second of audio",
            count,
            50 * count,
            voiced,
            seconds * 1_000 / Double(count)
        )
    )
}
