import Testing
import WSCore

@testable import VoiceLoad

/// The byte-scan fast path for `audio` frames must mean exactly what the general
/// `JSONSerialization` path means, for every input.
@Suite("Datagrid audio fast path agrees with the general path")
struct DatagridAudioFastPathTests {
    typealias Support = DialectTestSupport
    let client = DatagridClientDialect()

    /// The JSON-escaped form some encoders emit: every `/` as `\/`.
    static func escapingSlashes(_ base64: String) -> String {
        base64.replacingOccurrences(of: "/", with: #"\/"#)
    }

    /// Audio frames in many spellings, for payloads of many sizes.
    static func spellings(of bytes: [UInt8]) -> [String] {
        let b64 = Support.base64(bytes)
        let escaped = escapingSlashes(b64)
        return [
            #"{"type":"audio","payload":{"data":"\#(b64)"}}"#,
            #"{"type":"audio","payload":{"data":"\#(escaped)"}}"#,
            #"{"payload":{"data":"\#(b64)"},"type":"audio"}"#,
            #"{"payload":{"data":"\#(escaped)"},"type":"audio"}"#,
            " {\n\t\"type\" : \"audio\" ,\r\n \"payload\" : { \"data\" : \"\(escaped)\" } } \n",
            // Shapes the scan leaves to the general path:
            #"{"type":"audio","payload":{"data":"\#(b64)","sample_rate":24000}}"#,
            #"{"type":"audio","payload":{"data":"\#(b64)"},"seq":1}"#,
            #"{"type":"audio","type":"audio","payload":{"data":"\#(b64)"}}"#,
            #"{"type":"audio","payload":{"data":"\#(b64)"},"payload":{"data":""}}"#,
            #"{"type":"\u0061udio","payload":{"data":"\#(b64)"}}"#,
            #"{"type":"audio","payload":{"data":"\#(b64.replacingOccurrences(of: "A", with: #"\u0041"#))"}}"#,
            // Broken variants, malformed either way:
            #"{"type":"audio","payload":{"data":"\#(b64)"}"#,
            #"{"type":"audio","payload":{"data":"\#(b64)"}}}"#,
            #"{"type":"audio","payload":{"data":"\#(b64)"}} x"#,
            #"{"type":"audio","payload":{"data":"\#(b64)"#,
            #"{"type":"audio","payload":{"data":"\#(b64.dropLast())"}}"#,
            #"{"type":"audio","payload":{"data":"\#(b64)\n"}}"#,
            #"{"type":"audio","payload":{"data":"\#(b64.replacingOccurrences(of: "+", with: "-"))"}}"#,
            #"{"type":"audio","payload":{"data":"\#(b64)\x"}}"#,
            #"{"type":"audio""payload":{"data":"\#(b64)"}}"#,
        ]
    }

    static let payloadSizes = [0, 1, 2, 3, 4, 5, 31, 32, 33, 640, 960, 1_280, 4_096]

    @Test func everySpellingDecodesTheSameOnBothPaths() {
        var compared = 0
        for (index, size) in Self.payloadSizes.enumerated() {
            for seed in 0..<8 {
                let bytes = Support.bytes(count: size, seed: UInt64(index * 100 + seed))
                for text in Self.spellings(of: bytes) {
                    for frame in [WireFrame.text(text), .binary(Array(text.utf8))] {
                        #expect(client.decode(frame) == client.decodeParsingJSON(frame), "\(text.prefix(120))")
                        compared += 1
                    }
                }
            }
        }
        #expect(compared == Self.payloadSizes.count * 8 * 20 * 2)
    }

    @Test func theFastPathTakesCanonicalAndEscapedFrames() {
        let bytes: [UInt8] = [0xFF, 0xFF, 0xFF, 0xFB, 0xEF, 0x00]
        let b64 = Support.base64(bytes)
        #expect(b64.contains("/"))
        let frames = Self.spellings(of: bytes).prefix(5)
        for text in frames {
            #expect(DatagridAudioMessage.base64Data(in: .text(text)) == b64, "\(text)")
            #expect(DatagridAudioMessage.base64Data(in: .binary(Array(text.utf8))) == b64, "\(text)")
            #expect(client.decode(.text(text)) == [.agentAudio(AgentAudioChunk(audio: bytes, format: .pcm16(24_000)))])
        }
    }

    @Test func theFastPathLeavesOtherShapesToTheGeneralPath() {
        // Indices 15 and 17 stay exact audio shapes (only their base64 is damaged).
        for (index, text) in Self.spellings(of: [1, 2, 3, 4]).enumerated() where index >= 5 && index != 15 && index != 17 {
            #expect(DatagridAudioMessage.base64Data(in: .text(text)) == nil, "\(text)")
        }
        for text in [#"{"type":"ready"}"#, #"{"type":"audio"}"#, "", "{}", #"{"type":"audio","payload":{}}"#] {
            #expect(DatagridAudioMessage.base64Data(in: .text(text)) == nil, "\(text)")
        }
    }

    @Test func everyTruncationOfAnAudioFrameAgrees() {
        let text = #"{"type":"audio","payload":{"data":"\#(Self.escapingSlashes(Support.base64([0xFF, 0xFE, 0xFD, 1, 2, 3])))"}}"#
        let utf8 = Array(text.utf8)
        for length in 0..<utf8.count {
            let frame = WireFrame.binary(Array(utf8[..<length]))
            #expect(client.decode(frame) == client.decodeParsingJSON(frame))
            #expect(Support.isSingleMalformed(client.decode(frame)), "prefix of \(length) bytes")
        }
    }

    @Test func serverSideDecodesEscapedSlashes() throws {
        let bytes: [UInt8] = [0xFF, 0xFF, 0xFF]
        let text = #"{"type":"audio","payload":{"data":"\#(Self.escapingSlashes(Support.base64(bytes)))"}}"#
        #expect(text.contains(#"\/"#))
        #expect(try DatagridServerDialect().decode(.text(text)) == [.audio(bytes)])
    }
}
