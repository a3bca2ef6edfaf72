import Foundation
import Testing
import VoiceLoad

/// The `vload` binary given bad input: one line on stderr naming the problem, exit code 2.
@Suite("End to end: bad input")
struct BadInputTests {
    struct Outcome {
        var status: Int32
        var stderr: String
    }

    private func vload(_ arguments: [String], in directory: String = repositoryRoot()) throws -> Outcome {
        let process = Process()
        process.executableURL = Self.locateBinary()
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        let errorPipe = Pipe()
        process.standardError = errorPipe
        process.standardOutput = Pipe()
        try process.run()
        let data = errorPipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Outcome(status: process.terminationStatus, stderr: String(decoding: data, as: UTF8.self))
    }

    /// The vload executable built next to the test bundle.
    static func locateBinary() -> URL {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent("vload")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory.deleteLastPathComponent()
        }
        return URL(fileURLWithPath: repositoryRoot() + "/.build/debug/vload")
    }

    private func scenario(audio: String) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vload-bad-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("s.yaml").path
        try "steps:\n  - connect\n  - say: \(audio)\n".write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    private func expectUsageError(_ arguments: [String], mentions needle: String) throws {
        let outcome = try vload(arguments)
        #expect(outcome.status == 2, "\(arguments): status \(outcome.status), stderr \(outcome.stderr)")
        let lines = outcome.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(arguments): \(outcome.stderr)")
        #expect(outcome.stderr.hasPrefix("vload: error: "))
        #expect(outcome.stderr.contains(needle), "\(arguments): \(outcome.stderr)")
    }

    @Test("vload dialects lists every registered dialect with its formats and metrics")
    func dialects() throws {
        let process = Process()
        process.executableURL = Self.locateBinary()
        process.arguments = ["dialects"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        for id in DialectRegistry.ids {
            #expect(text.contains("\n\(id)\n") || text.hasPrefix("\(id)\n"), "\(id) missing")
        }
        #expect(text.contains("metrics:"))
    }

    @Test("a bad --record value")
    func badRecordPolicy() throws {
        try expectUsageError(
            ["--scenario", "greeting", "--record", "best:3"],
            mentions: "--record must be worst:N (N 1–1000), failed, all or none, or worst:N,failed (got 'best:3')"
        )
    }

    @Test("a bad --srtp-profiles or --sim-srtp-profiles, and either for a dialect that makes no WebRTC call")
    func badSRTPProfiles() throws {
        let cases: [(arguments: [String], mentions: String)] = [
            (["--dialect", "pipecat-webrtc", "--srtp-profiles", "SRTP_AEAD_AES_256_GCM"],
             "--srtp-profiles: 'SRTP_AEAD_AES_256_GCM' is not an SRTP profile vload offers"),
            (["--scenario", "greeting", "--srtp-profiles", "SRTP_AEAD_AES_128_GCM"],
             "--srtp-profiles applies to a WebRTC dialect's calls (pipecat-webrtc, openai-realtime-webrtc), not to datagrid's"),
            (["--dialect", "pipecat-webrtc", "--sim-srtp-profiles", "AES_CM_128_HMAC_SHA1_80,aes_cm_128_hmac_sha1_80"],
             "--sim-srtp-profiles names SRTP_AES128_CM_HMAC_SHA1_80 twice"),
            (["--scenario", "greeting", "--sim-srtp-profiles", "SRTP_AEAD_AES_128_GCM"],
             "--sim-srtp-profiles applies to a WebRTC dialect's simulator (pipecat-webrtc, openai-realtime-webrtc), not to datagrid's"),
        ]
        for (arguments, mentions) in cases { try expectUsageError(arguments, mentions: mentions) }
    }

    @Test("an oversized frame asked of the WebRTC simulator, and a fault the WebRTC dialect cannot show")
    func faultsOverWebRTC() throws {
        try expectUsageError(
            ["--dialect", "pipecat-webrtc", "--sim-faults", "refuse:503=0.1,oversized=0.1/turn"],
            mentions: "fault oversized cannot be injected on dialect pipecat-webrtc: a WebRTC call's data channel message is no WebSocket frame"
        )
        try expectUsageError(
            ["--dialect", "pipecat-webrtc", "--sim-faults", "error_event=0.1"],
            mentions: "fault error_event cannot be injected on dialect pipecat-webrtc: it has no in-band error message"
        )
    }

    @Test("missing scenario")
    func missingScenario() throws {
        try expectUsageError(["--scenario", "no-such-scenario"], mentions: "no-such-scenario")
    }

    @Test("missing WAV")
    func missingWAV() throws {
        try expectUsageError(
            ["--scenario", try scenario(audio: "nothing-here.wav"), "--url", "ws://127.0.0.1:9/"],
            mentions: "nothing-here.wav"
        )
    }

    @Test("corrupt WAV")
    func corruptWAV() throws {
        let path = try scenario(audio: "broken.wav")
        let wav = (path as NSString).deletingLastPathComponent + "/broken.wav"
        try Data("RIFF this is not audio at all".utf8).write(to: URL(fileURLWithPath: wav))
        try expectUsageError(["--scenario", path, "--url", "ws://127.0.0.1:9/"], mentions: "broken.wav")
    }

    @Test("unknown dialect")
    func unknownDialect() throws {
        try expectUsageError(["--scenario", "greeting", "--dialect", "klingon"], mentions: "unknown dialect 'klingon'")
    }

    @Test("a dialect file with no --url and no --dialect: the simulator cannot speak it")
    func dialectFileWithoutURL() throws {
        try expectUsageError(
            ["--scenario", "greeting", "--dialect-file", "dialects/datagrid.yaml"],
            mentions: "the built-in simulator speaks only the built-in dialects"
        )
    }

    @Test("a shipped dialect file by name, from another working directory: found, and refused without --url in one line")
    func shippedDialectByNameWithoutURL() throws {
        let elsewhere = FileManager.default.temporaryDirectory.path
        let outcome = try vload(["--scenario", repositoryRoot() + "/scenarios/greeting.yaml", "--dialect", "gemini-live"], in: elsewhere)
        #expect(outcome.status == 2, "\(outcome.stderr)")
        #expect(outcome.stderr.split(separator: "\n").count == 1, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("--dialect gemini-live is a dialect file ("), "\(outcome.stderr)")
        #expect(outcome.stderr.contains("dialects/gemini-live.yaml) with no --url"), "\(outcome.stderr)")
    }

    @Test("malformed URL")
    func malformedURL() throws {
        try expectUsageError(["--scenario", "greeting", "--url", "ftp://127.0.0.1/voice"], mentions: "ftp://127.0.0.1/voice")
        try expectUsageError(["--scenario", "greeting", "--url", "ws://"], mentions: "ws://")
    }

    @Test("--clients 0")
    func zeroClients() throws {
        try expectUsageError(["--scenario", "greeting", "--clients", "0"], mentions: "--clients")
    }

    @Test("scenario with a typo")
    func typo() throws {
        let path = try scenario(audio: "x.wav")
        try "steps:\n  - connect\n  - sya: x.wav\n".write(toFile: path, atomically: true, encoding: .utf8)
        try expectUsageError(["--scenario", path], mentions: "unknown step 'sya'")
    }

    @Test("what the dialect or the endpoint cannot do is refused before the run")
    func refusedBeforeTheRun() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vload-refused-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        func write(_ name: String, _ yaml: String) throws -> String {
            let path = directory.appendingPathComponent(name).path
            try yaml.write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }
        let wide = try write(
            "wide.yaml",
            """
            dialect: openai-realtime
            session: {audio: {input: {format: {type: audio/pcm, rate: 16000}}}}
            steps: [connect]
            """
        )
        try expectUsageError(["--scenario", wide, "--url", "wss://api.openai.com/v1/realtime"], mentions: "24000 Hz or G.711")
        let mulaw = try write(
            "mulaw.yaml",
            """
            dialect: openai-realtime
            session: {audio: {input: {format: {type: audio/pcmu}}, output: {format: {type: audio/pcmu}}}}
            steps: [connect]
            """
        )
        try expectUsageError(["--scenario", mulaw], mentions: "the built-in simulator speaks openai-realtime")
        let keys = try write("keys.yaml", "steps:\n  - connect\n  - dtmf: \"12\"\n")
        try expectUsageError(["--scenario", keys, "--dialect", "datagrid"], mentions: "'dtmf'")
        let flush = try write("flush.yaml", "steps:\n  - connect\n  - finalize\n")
        try expectUsageError(["--scenario", flush, "--dialect", "openai-realtime"], mentions: "'finalize'")
    }

    @Test("vload validate: a typo fails with the line and column, exit 2; the shipped scenarios pass")
    func validate() throws {
        let path = try scenario(audio: "x.wav")
        try "steps:\n  - connect\n  - sya: x.wav\n".write(toFile: path, atomically: true, encoding: .utf8)
        try expectUsageError(["validate", path], mentions: "s.yaml:3:5: steps[1]: unknown step 'sya'")
        try expectUsageError(["validate", try scenario(audio: "missing.wav")], mentions: "missing.wav")
        for name in ["greeting", "interruption", "multi-turn", "tool-call", "long-call", "backchannel"] {
            let outcome = try vload(["validate", name])
            #expect(outcome.status == 0, "\(name): \(outcome.stderr)")
        }
    }
}
