import NIOCore
import NIOEmbedded
import Testing

@testable import WebRTC

/// The answerer reads DTLS only from a source whose connectivity check it answered: a stray
/// ClientHello from anywhere else (the peer of an ended call still sending to a port the kernel
/// has reused) neither starts a handshake nor names the call's pair.
@Suite("WebRTC answerer: DTLS only from a checked source")
struct WebRTCAnswerHandlerSourceTests {
    static let password = "simPassword0123456789abc"

    @Test("a ClientHello from a source that sent no check is dropped; the checked caller's is answered")
    func strayClientHello() throws {
        var generator = SystemRandomNumberGenerator()
        let local = WebRTCLocalSide(identity: try DTLSIdentity(), generator: &generator)
        let offer = try SDPReceivedOffer(parsing: local.offer(port: 5_000, ssrc: 1, sessionID: 1).text)
        let answererIdentity = try DTLSIdentity()
        let answerer = try WebRTCAnswerHandler(
            offer: offer, localUfrag: "simUfrag", localPassword: Self.password, identity: answererIdentity
        ) { _ in }
        let channel = EmbeddedChannel(handler: answerer, loop: EmbeddedEventLoop())
        defer { _ = try? channel.finish() }
        let stray = try SocketAddress(ipAddress: "127.0.0.1", port: 40_001)
        let caller = try SocketAddress(ipAddress: "127.0.0.1", port: 40_002)
        func clientHello() throws -> [UInt8] {
            let client = try DTLSEndpoint(identity: local.identity, role: .client, expectedFingerprint: answererIdentity.fingerprint)
            return try #require(client.start().datagrams.first)
        }

        try channel.writeInbound(AddressedEnvelope(remoteAddress: stray, data: ByteBuffer(bytes: try clientHello())))
        #expect(answerer.counters.dtlsReceived == 1 && answerer.counters.otherReceived == 1)
        #expect(answerer.remote == nil)
        #expect(try channel.readOutbound(as: AddressedEnvelope<ByteBuffer>.self) == nil)

        let check = STUNMessage(
            type: .bindingRequest, transactionID: STUNTransactionID(bytes: Array(repeating: 9, count: STUNTransactionID.byteCount)),
            attributes: [.username("simUfrag:\(local.iceUfrag)"), .priority(1), .iceControlling(tieBreaker: 1)])
        try channel.writeInbound(
            AddressedEnvelope(remoteAddress: caller, data: ByteBuffer(bytes: check.serialized(integrityKey: Array(Self.password.utf8), fingerprint: true))))
        let response = try #require(try channel.readOutbound(as: AddressedEnvelope<ByteBuffer>.self))
        // Answered, not nominated (no USE-CANDIDATE): the pair is not named yet.
        #expect(response.remoteAddress == caller && answerer.remote == nil)

        // The checked caller's ClientHello, overtaking its nomination, names the pair.
        try channel.writeInbound(AddressedEnvelope(remoteAddress: caller, data: ByteBuffer(bytes: try clientHello())))
        #expect(answerer.remote == caller && answerer.counters.otherReceived == 1)
        // The answerer, the DTLS server, answers the checked caller's ClientHello.
        let flight = try #require(try channel.readOutbound(as: AddressedEnvelope<ByteBuffer>.self))
        #expect(flight.remoteAddress == caller && flight.data.readableBytesView.first == 22)
    }
}
