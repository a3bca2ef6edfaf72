import Testing

@testable import WebRTC

@Suite("STUN messages")
struct STUNMessageTests {
    static let transactionID = STUNTransactionID(bytes: Array(1...12))

    @Test("CRC-32 and HMAC-SHA1 give their published check values")
    func checkValues() {
        // The CRC-32 check value (ISO 3309) and RFC 2202 §3 test case 1.
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
        let code = HMACSHA1.authenticationCode(key: [UInt8](repeating: 0x0B, count: 20), message: Array("Hi There".utf8))
        #expect(code.map { String($0, radix: 16).leftPadded(to: 2) }.joined() == "b617318655057264e28bc0b6fb378c8ef146be00")
    }

    @Test("a request round-trips with integrity and fingerprint, and without either")
    func roundTrip() throws {
        let message = STUNMessage(
            type: .bindingRequest, transactionID: Self.transactionID,
            attributes: [.username("a:b"), .priority(7), .iceControlling(tieBreaker: 9), .useCandidate, .other(type: 0xC001, value: [1, 2, 3])])
        let key = Array("password".utf8)
        let signed = try STUNMessage(parsing: message.serialized(integrityKey: key, fingerprint: true), integrityKey: key)
        #expect(signed.attributes == message.attributes)
        #expect(signed.hadIntegrity && signed.hadFingerprint)
        let bare = try STUNMessage(parsing: message.serialized(integrityKey: nil, fingerprint: false), integrityKey: nil)
        #expect(bare.attributes == message.attributes)
        #expect(!bare.hadIntegrity && !bare.hadFingerprint)
        #expect(throws: STUNParseError.integrityMismatch) {
            try STUNMessage(parsing: message.serialized(integrityKey: nil, fingerprint: true), integrityKey: key)
        }
    }

    @Test("bytes that are not a Binding message are typed errors")
    func malformed() {
        let good = STUNMessage(type: .bindingSuccess, transactionID: Self.transactionID, attributes: [.priority(1)])
            .serialized(integrityKey: nil, fingerprint: false)
        #expect(throws: STUNParseError.tooShort(byteCount: 19)) { try STUNMessage(parsing: Array(good[..<19]), integrityKey: nil) }
        var badCookie = good
        badCookie[4] = 0
        #expect(throws: STUNParseError.notSTUN) { try STUNMessage(parsing: badCookie, integrityKey: nil) }
        #expect(throws: STUNParseError.notSTUN) { try STUNMessage(parsing: good + [0, 0, 0, 0], integrityKey: nil) }
        var allocate = good
        allocate[1] = 0x03
        #expect(throws: STUNParseError.unknownMessageType(0x0103)) { try STUNMessage(parsing: allocate, integrityKey: nil) }
        var longAttribute = good
        longAttribute[23] = 8
        #expect(throws: STUNParseError.truncatedAttribute(type: 0x0024)) { try STUNMessage(parsing: longAttribute, integrityKey: nil) }
        var shortPriority = good
        shortPriority[23] = 2
        #expect(throws: STUNParseError.malformedAttribute(type: 0x0024)) { try STUNMessage(parsing: shortPriority, integrityKey: nil) }
    }

    @Test("a USERNAME that is not UTF-8 is kept as its bytes, so the message writes back unchanged")
    func nonUTF8Username() throws {
        let bytes = STUNMessage(
            type: .bindingRequest, transactionID: Self.transactionID, attributes: [.other(type: 0x0006, value: [0xFF, 0xFE, 0x41])]
        ).serialized(integrityKey: nil, fingerprint: true)
        let message = try STUNMessage(parsing: bytes, integrityKey: nil)
        #expect(message.attributes == [.other(type: 0x0006, value: [0xFF, 0xFE, 0x41])])
        #expect(message.serialized(integrityKey: nil, fingerprint: true) == bytes)
    }

    @Test("the first byte tells STUN from DTLS and RTP (RFC 7983)")
    func demultiplexing() {
        #expect(STUNMessage.isSTUN(firstByte: 0x00) && STUNMessage.isSTUN(firstByte: 0x01))
        #expect(!STUNMessage.isSTUN(firstByte: 22))
        #expect(!STUNMessage.isSTUN(firstByte: 0x80))
    }
}
