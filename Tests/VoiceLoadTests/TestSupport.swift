import Foundation
import NIOPosix
import WSCore

@testable import VoiceLoad

/// The repository's root directory, found from this file's path.
func repositoryRoot(_ file: String = #filePath) -> String {
    var url = URL(fileURLWithPath: file)
    while url.path != "/" {
        url.deleteLastPathComponent()
        if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url.path }
    }
    return FileManager.default.currentDirectoryPath
}

/// What the client-side test dialects share: PCM16 at 16 kHz both ways, audio as raw binary
/// frames, and one value as both dialect and codec.
protocol BinaryPCMTestDialect: ClientDialect, ClientCodec {}

extension BinaryPCMTestDialect {
    var apiVersion: String { "none: a test dialect" }
    var inputFormat: AudioFormat { .pcm16(16_000) }
    var outputFormat: AudioFormat { .pcm16(16_000) }
    func prepareAudio(_ bytes: [UInt8]) -> PreparedAudio {
        PreparedAudio(sharedFrame: EncodedFrame(.binary(bytes)), byteCount: bytes.count)
    }
    func makeCodec(parameters: [String: JSONValue]) -> any ClientCodec { self }
    func audioFrame(_ audio: PreparedAudio) -> EncodedFrame { audio.sharedFrame ?? EncodedFrame(.binary([])) }
}

/// A dialect that sends audio as raw binary frames and takes binary frames as agent audio:
/// for client-side tests.
struct EchoDialect: BinaryPCMTestDialect {
    var id: String { "echo" }
    var readySignal: ReadySignal { .onOpen }
    var turnEndSignal: TurnEndSignal { .audioGap }
    var authentication: AuthenticationStyle { .none }
    func framesOnOpen() -> [WireFrame] { [] }
    func frames(for intent: ClientIntent) -> [WireFrame] { [] }
    func receive(_ frame: WireFrame) -> DecodedFrame {
        if case .binary(let bytes) = frame { return [.agentAudio(AgentAudioChunk(audio: bytes, format: outputFormat))] }
        return []
    }
}

extension ErrorDetail {
    /// A detail made the only way there is, through a redactor (one with no secrets).
    static func test(_ text: String) -> ErrorDetail {
        Redactor(secrets: []).detail(.text(text))
    }
}

extension PreparedUtterance {
    /// A clip of `frameCount` 40 ms PCM16 16 kHz frames of silence, with speech marked at 0…20 ms.
    static func testClip(frameCount: Int) -> PreparedUtterance {
        PreparedUtterance(
            format: .pcm16(16_000),
            frameMs: 40,
            frames: Array(repeating: [UInt8](repeating: 0, count: 1_280), count: frameCount),
            boundaries: SpeechBoundaries(speechStartUs: 0, speechEndUs: 20_000),
            sourcePath: "test.wav"
        )
    }
}

/// Runs `body` with a one-thread event loop group, shutting the group down afterwards.
func withGroup(_ body: (MultiThreadedEventLoopGroup) async throws -> Void) async throws {
    let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    do {
        try await body(group)
    } catch {
        try await group.shutdownGracefully()
        throw error
    }
    try await group.shutdownGracefully()
}

extension SeededGenerator {
    /// `count` random bytes from this seeded stream.
    mutating func bytes(_ count: Int) -> [UInt8] {
        (0..<count).map { _ in UInt8.random(in: 0...255, using: &self) }
    }
}

/// The bytes a fixture writes as lower-case hex pairs (the conformance suite's JSON fixtures).
func bytes(hex: String) -> [UInt8] {
    let digits = Array(hex.utf8)
    return stride(from: 0, to: digits.count, by: 2).map { UInt8(String(decoding: digits[$0..<($0 + 2)], as: UTF8.self), radix: 16)! }
}
