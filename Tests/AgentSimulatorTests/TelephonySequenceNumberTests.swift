import Foundation
import Testing
import WSCore

@testable import AgentSimulator
@testable import VoiceLoad

/// The message numbers of the telephony dialects that number what the caller sends (Twilio
/// `sequenceNumber`; Telnyx, Plivo and Exotel, docs/telephony.md), read from the frames of a
/// barge-in call in the order they were written to the socket (`DialectCall.framesToServer`,
/// on synthetic time). The agent's marks are echoed once their audio has played, tens of
/// milliseconds after they arrived, with media frames sent meanwhile: an echo numbered when it
/// was scheduled went out of order (seen against an independent server: 506, 508, 509, 510,
/// 507, 511).
@Suite("Telephony message numbers follow wire order")
struct TelephonySequenceNumberTests {
    /// Each numbered dialect, its number's key and first value.
    static let numbered: [(id: String, key: String, first: Int)] = [
        ("twilio-media-streams", "sequenceNumber", 1),
        ("telnyx-media-streaming", "sequence_number", 1),
        ("plivo-audio-streaming", "sequenceNumber", 0),
        ("exotel-voicebot", "sequence_number", 1),
    ]

    /// The number a frame carries (a string or a number), nil for a frame with none.
    static func number(_ frame: WireFrame, key: String) -> Int? {
        guard case .text(let text) = frame,
            let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        else { return nil }
        if let string = object[key] as? String { return Int(string) }
        return object[key] as? Int
    }

    static func event(_ frame: WireFrame) -> String? {
        guard case .text(let text) = frame,
            let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        else { return nil }
        return object["event"] as? String
    }

    @Test("a barge-in call's messages are numbered first, first + 1, … in the order they are written", arguments: [0, 1, 2, 3])
    func bargeInCallNumbersInWireOrder(index: Int) throws {
        let (id, key, first) = Self.numbered[index]
        let plan = try DialectCallTests.plan(dialect: id, scenario: "interruption")
        let call = try DialectBargeInCallTests.call(dialect: id, plan: plan, simulator: DialectBargeInCallTests.bargeInSimulator(dialect: id))
        #expect(call.failure == nil, "\(id): \(String(describing: call.failure))")
        #expect(!call.marksPlayed.isEmpty, "\(id): no mark was echoed, so the call proves nothing")

        let written = call.framesToServer.filter { Self.event($0) != "connected" }
        let numbers = written.map { Self.number($0, key: key) }
        #expect(numbers.allSatisfy { $0 != nil }, "\(id): a message without \(key)")
        let expected = Array(first..<(first + written.count))
        #expect(numbers.compactMap { $0 } == expected, "\(id): \(Self.outOfOrder(numbers))")
        // The echoes went out among the media messages, not after them all.
        let echoes = written.indices.filter { Self.event(written[$0]) != "media" && Self.event(written[$0]) != "start" }
        #expect(echoes.contains { $0 < written.count - 2 }, "\(id): no echo was sent while media was streaming")
    }

    /// The first numbers that break the run, with their neighbours: `506, 508, 509`.
    static func outOfOrder(_ numbers: [Int?]) -> String {
        let values = numbers.map { $0 ?? -1 }
        guard let broken = values.indices.dropFirst().first(where: { values[$0] != values[$0 - 1] + 1 }) else { return "in order" }
        return values[max(0, broken - 2)..<min(values.count, broken + 4)].map(String.init).joined(separator: ", ")
    }
}
