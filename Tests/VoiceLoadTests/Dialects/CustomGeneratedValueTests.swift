import Foundation
import Testing
import WSCore

@testable import VoiceLoad

/// `${uuid}`, `${digits:N}` and `${now_iso}` (docs/custom-dialects.md): drawn from the codec's own
/// seeded generator and injected clock, so these tests replay exact values.
@Suite("Custom dialect: generated values")
struct CustomGeneratedValueTests {
    typealias Support = CustomDialectTestSupport

    /// 2023-11-14T22:13:20.123Z.
    static let fixedNow = Date(timeIntervalSince1970: 1_700_000_000.123)

    static let yaml = """
        dialect: generated
        audio:
          input: {encoding: pcm16le, sample_rate: 16000, transport: json,
                  json: {"audio": "${audio.b64}", "id": "${uuid}"}}
        send:
          interrupt: {"id": "${uuid}", "other": "${uuid}", "pin": "${digits:6}", "n": "${digits:3:int}", "at": "${now_iso}"}
          close: "STOP ${digits:4} ${now_iso}"
        """

    func codec(seed: UInt64, now: Date = fixedNow) throws -> CustomClientCodec {
        let dialect = try CustomDialect.parse(yaml: Self.yaml, path: "g.yaml", environment: [:])
        return CustomClientCodec(dialect: dialect, parameters: [:], entropy: TemplateEntropy(seed: seed, now: { now }))
    }

    func members(_ frame: WireFrame?) throws -> [String: JSONValue] {
        guard case .object(let members)? = DialectTestSupport.json(frame) else {
            Issue.record("not a JSON object: \(String(describing: frame))")
            return [:]
        }
        return members
    }

    func string(_ value: JSONValue?) -> String {
        if case .string(let text)? = value { return text }
        return ""
    }

    @Test func placeholdersHaveTheirShapes() throws {
        var codec = try codec(seed: 1)
        let message = try members(codec.frames(for: .interrupt).first)
        let uuid = string(message["id"])
        #expect(uuid.wholeMatch(of: /[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}/) != nil, "\(uuid)")
        #expect(string(message["other"]) != uuid, "every ${uuid} draws anew")
        #expect(string(message["pin"]).wholeMatch(of: /[0-9]{6}/) != nil)
        guard let number = message["n"]?.doubleValue else {
            Issue.record("${digits:3:int} is not a number: \(String(describing: message["n"]))")
            return
        }
        #expect((0..<1_000).contains(number) && number.rounded() == number)
        #expect(message["at"] == .string("2023-11-14T22:13:20.123Z"))
        let close = try #require(DialectTestSupport.text(codec.frames(for: .stop).first))
        #expect(close.wholeMatch(of: /STOP [0-9]{4} 2023-11-14T22:13:20\.123Z/) != nil, "\(close)")
    }

    @Test func aSeedReplaysTheSameValues() throws {
        var first = try codec(seed: 42)
        var second = try codec(seed: 42)
        var other = try codec(seed: 43)
        let frames = (0..<3).map { _ in first.frames(for: .interrupt) }
        #expect(frames == (0..<3).map { _ in second.frames(for: .interrupt) })
        #expect(frames.first != other.frames(for: .interrupt))
        #expect(frames[0] != frames[1], "each frame draws new values")
    }

    @Test func theAudioTemplateIsBuiltPerSendWhenItDrawsValues() throws {
        let dialect = try CustomDialect.parse(yaml: Self.yaml, path: "g.yaml", environment: [:])
        let prepared = dialect.prepareAudio([1, 0])
        #expect(prepared.sharedFrame == nil)
        var codec = try codec(seed: 5)
        let first = try members(Support.wireFrame(codec.audioFrame(prepared)))
        let second = try members(Support.wireFrame(codec.audioFrame(prepared)))
        #expect(first["audio"] == .string("AQA="))
        #expect(first["id"] != second["id"])
    }

    @Test func productionCodecsDrawDistinctValues() throws {
        let dialect = try CustomDialect.parse(yaml: Self.yaml, path: "g.yaml", environment: [:])
        var first = dialect.makeCodec(parameters: [:])
        var second = dialect.makeCodec(parameters: [:])
        #expect(try members(first.frames(for: .interrupt).first)["id"] != members(second.frames(for: .interrupt).first)["id"])
    }

    @Test(arguments: [
        (0.0, "1970-01-01T00:00:00.000Z"),
        (-0.001, "1969-12-31T23:59:59.999Z"),
        (951_782_400.9996, "2000-02-29T00:00:01.000Z"),
        (4_107_542_399.5, "2100-02-28T23:59:59.500Z"),
        (1_709_251_199.25, "2024-02-29T23:59:59.250Z"),
    ])
    func isoTimesAreUTCWithMilliseconds(seconds: Double, expected: String) {
        #expect(TemplateEntropy.iso8601(Date(timeIntervalSince1970: seconds)) == expected)
    }

    @Test(arguments: [
        (#"{"n": "${digits:0}"}"#, "needs a digit count from 1 to 1000"),
        (#"{"n": "${digits:x}"}"#, "needs a digit count"),
        (#"{"n": "${digits:1001}"}"#, "needs a digit count"),
        (#"{"n": "${digits:3:float}"}"#, "unknown type suffix"),
        (#"{"n": "${uuid:float}"}"#, "unknown type suffix"),
    ])
    func badPlaceholdersAreLoadErrors(template: String, message: String) throws {
        let error = try #require(Support.loadError(Support.head + "send: {interrupt: \(template)}\n"))
        #expect(error.message.contains(message), "\(error)")
    }

    @Test func generatedValuesAreNotForLoadTimeTemplates() throws {
        let header = try #require(Support.loadError(Support.head + "connect: {headers: {X-Id: \"${uuid}\"}}\n"))
        #expect(header.message.contains("only ${env.NAME} is allowed"), "\(header)")
        let url = try #require(Support.loadError(Support.head + "connect: {url: \"wss://h/${now_iso}\"}\n"))
        #expect(url.message.contains("connect.url may only use"), "\(url)")
    }
}
