import Foundation
import NIOCore
import WSCore

@testable import VoiceLoad

/// Helpers shared by the custom dialect tests.
enum CustomDialectTestSupport {
    /// `dialects/datagrid.yaml` at the repository root.
    static let datagridPath: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { url.deleteLastPathComponent() }
        return url.appendingPathComponent("dialects/datagrid.yaml").path
    }()

    /// The shipped Datagrid description, loaded with an empty environment.
    static func datagrid() throws -> CustomDialect {
        try CustomDialect.load(path: datagridPath, environment: [:])
    }

    /// The smallest valid head of a dialect file: binary PCM16 16 kHz input, nothing else.
    static let head = """
        dialect: test
        audio:
          input: {encoding: pcm16le, sample_rate: 16000, transport: binary}

        """

    /// A dialect made of `head` and `body`.
    static func dialect(_ body: String, environment: [String: String] = [:]) throws -> CustomDialect {
        try CustomDialect.parse(yaml: head + body, path: "test.yaml", environment: environment)
    }

    /// The error loading `yaml` gives, nil when it loads.
    static func loadError(_ yaml: String, environment: [String: String] = [:]) -> CustomDialectError? {
        do {
            _ = try CustomDialect.parse(yaml: yaml, path: "test.yaml", environment: environment)
            return nil
        } catch {
            return error
        }
    }

    /// The events one frame decodes to with a fresh codec.
    static func events(_ dialect: CustomDialect, _ frame: WireFrame) -> [NormalizedEvent] {
        var codec = dialect.makeCodec(parameters: [:])
        return codec.receive(frame).events
    }

    /// `events` with every malformed reason blanked: reasons are free text per dialect.
    static func normalized(_ events: [NormalizedEvent]) -> [NormalizedEvent] {
        events.map { event in
            if case .malformed = event { return .malformed(reason: "") }
            return event
        }
    }

    /// The frame an encoded frame holds.
    static func wireFrame(_ encoded: EncodedFrame) -> WireFrame {
        switch encoded.kind {
        case .text: return .text(String(buffer: encoded.payload))
        case .binary: return .binary(Array(buffer: encoded.payload))
        }
    }
}
