import Foundation
import Testing

@testable import RTP

/// vload's RTP parser and statistics against aiortc's, on packets and a stream that aiortc made
/// (Tests/Conformance/rtp_fixtures.py; the conformance suite checks the file is aiortc's).
@Suite("RTP against aiortc")
struct AiortcRTPFixtureTests {
    struct Fixture: Decodable {
        var packets: [Packet]
        var malformed: [Malformed]
        var statistics: Statistics
    }

    struct Packet: Decodable {
        var name: String
        var bytes: String
        var marker: Bool
        var payloadType: UInt8
        var sequenceNumber: UInt16
        var timestamp: UInt32
        var ssrc: UInt32
        var csrc: [UInt32]
        var extensionProfile: UInt16?
        var extensionData: String?
        var paddingSize: Int
        var payload: String
    }

    struct Malformed: Decodable {
        var kind: String
        var bytes: String
    }

    struct Statistics: Decodable {
        var clockRateHz: Int
        var steps: [Step]
    }

    struct Step: Decodable {
        var sequenceNumber: UInt16
        var timestamp: UInt32
        var arrivalNs: UInt64
        var packetsReceived: Int
        var packetsExpected: Int
        var packetsLost: Int
        var jitter: Int
    }

    private static func fixture() throws -> Fixture {
        let path = repositoryRoot() + "/Tests/Conformance/fixtures/aiortc_rtp.json"
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try decoder.decode(Fixture.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
    }

    @Test("every packet aiortc packed reads as aiortc reads it, and writes back to the same bytes")
    func packets() throws {
        let fixture = try Self.fixture()
        #expect(fixture.packets.count == 7)
        for expected in fixture.packets {
            let wire = bytes(hex: expected.bytes)
            let packet = try RTPPacket(parsing: wire)
            #expect(packet.header.marker == expected.marker, "\(expected.name)")
            #expect(packet.header.payloadType == expected.payloadType, "\(expected.name)")
            #expect(packet.header.sequenceNumber == expected.sequenceNumber, "\(expected.name)")
            #expect(packet.header.timestamp == expected.timestamp, "\(expected.name)")
            #expect(packet.header.ssrc == expected.ssrc, "\(expected.name)")
            #expect(packet.header.csrcs == expected.csrc, "\(expected.name)")
            #expect(packet.header.headerExtension?.profile == expected.extensionProfile, "\(expected.name)")
            #expect(packet.header.headerExtension?.data == expected.extensionData.map(bytes(hex:)), "\(expected.name)")
            #expect(packet.paddingBytes == expected.paddingSize, "\(expected.name)")
            #expect(packet.payload == bytes(hex: expected.payload), "\(expected.name)")
            #expect(packet.serialized() == wire, "\(expected.name)")
        }
    }

    @Test("every packet aiortc rejects, vload rejects for the same reason")
    func malformed() throws {
        let fixture = try Self.fixture()
        #expect(fixture.malformed.count == 7)
        for expected in fixture.malformed {
            do {
                _ = try RTPPacket(parsing: bytes(hex: expected.bytes))
                Issue.record("accepted \(expected.bytes)")
            } catch {
                #expect(Self.kind(of: error) == expected.kind, "\(expected.bytes): \(error)")
            }
        }
    }

    private static func kind(of error: RTPParseError) -> String {
        switch error {
        case .tooShort: return "tooShort"
        case .unsupportedVersion: return "unsupportedVersion"
        case .truncatedCSRCList: return "truncatedCSRCList"
        case .truncatedHeaderExtension: return "truncatedHeaderExtension"
        case .invalidPadding: return "invalidPadding"
        }
    }

    @Test("received, expected, lost and jitter after every packet of a stream with loss, reordering, a duplicate and a wrap")
    func statistics() throws {
        let fixture = try Self.fixture()
        var statistics = RTPReceiveStatistics(clockRateHz: fixture.statistics.clockRateHz)
        #expect(fixture.statistics.steps.count == 16)
        for step in fixture.statistics.steps {
            statistics.record(sequenceNumber: step.sequenceNumber, timestamp: step.timestamp, arrivalNs: step.arrivalNs)
            let at = "after sequence number \(step.sequenceNumber)"
            #expect(statistics.packetsReceived == step.packetsReceived, "\(at)")
            #expect(statistics.packetsExpected == step.packetsExpected, "\(at)")
            #expect(statistics.packetsLost == step.packetsLost, "\(at)")
            #expect(statistics.jitterTimestampUnits == step.jitter, "\(at)")
        }
    }
}
