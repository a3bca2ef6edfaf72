import Testing

@testable import WebRTC

/// Two DTLS endpoints handshaking in memory through OpenSSL, then SRTP through libsrtp2 with the
/// keys they exported.
@Suite("DTLS and SRTP")
struct DTLSEndpointTests {
    @Test("the handshake completes, each side's fingerprint checks, the exported keys pair up, and SRTP is AEAD_AES_128_GCM")
    func handshakeAndSRTP() throws {
        let clientIdentity = try DTLSIdentity()
        let serverIdentity = try DTLSIdentity()
        #expect(clientIdentity.fingerprint.digest.count == 32 && clientIdentity.fingerprint != serverIdentity.fingerprint)
        let (outcome, clientKeys, serverKeys) = try handshake(client: clientIdentity, server: serverIdentity)
        #expect(clientKeys.profile == .aeadAES128GCM && serverKeys.profile == .aeadAES128GCM)
        #expect(clientKeys.local.count == 28 && clientKeys.remote.count == 28)
        #expect(clientKeys.local == serverKeys.remote && clientKeys.remote == serverKeys.local)
        #expect(clientKeys.local != clientKeys.remote)
        #expect(outcome.largestDatagramBytes <= DTLSEndpoint.mtuBytes)
        try expectSRTPRoundTrip(from: clientKeys, to: serverKeys, tagBytes: 16)
    }

    /// A peer that offers only AES_CM_128_HMAC_SHA1_80, as a DTLS client or server: the
    /// handshake agrees it (vload offers it second), and SRTP works with its 30-byte keys.
    @Test("a peer without GCM agrees AES_CM_128_HMAC_SHA1_80", arguments: [true, false])
    func fallbackProfile(peerIsClient: Bool) throws {
        let vloadIdentity = try DTLSIdentity()
        let peerIdentity = try DTLSIdentity(srtpProfiles: [.aes128CMHMACSHA1_80])
        let (_, clientKeys, serverKeys) = try handshake(
            client: peerIsClient ? peerIdentity : vloadIdentity, server: peerIsClient ? vloadIdentity : peerIdentity)
        #expect(clientKeys.profile == .aes128CMHMACSHA1_80 && serverKeys.profile == .aes128CMHMACSHA1_80)
        #expect(clientKeys.local.count == 30 && clientKeys.local == serverKeys.remote)
        try expectSRTPRoundTrip(from: clientKeys, to: serverKeys, tagBytes: 10)
    }

    /// The server's order picks (OpenSSL takes its own list's first profile the client offers):
    /// the simulator's answerer with `--sim-srtp-profiles` AES_CM first agrees AES_CM with a
    /// caller that offers GCM first.
    @Test("the DTLS server's order picks the profile")
    func serverOrderPicks() throws {
        let client = try DTLSIdentity()
        let server = try DTLSIdentity(srtpProfiles: [.aes128CMHMACSHA1_80, .aeadAES128GCM])
        let (_, clientKeys, serverKeys) = try handshake(client: client, server: server)
        #expect(clientKeys.profile == .aes128CMHMACSHA1_80 && serverKeys.profile == .aes128CMHMACSHA1_80)
    }

    /// Ends whose lists do not meet: the handshake itself completes (a server with no common
    /// profile leaves use_srtp out), and each end fails with one line naming its own profiles.
    @Test("ends with no SRTP profile in common each fail, naming the profiles they offered")
    func noCommonProfile() throws {
        let clientIdentity = try DTLSIdentity(srtpProfiles: [.aeadAES128GCM])
        let serverIdentity = try DTLSIdentity(srtpProfiles: [.aes128CMHMACSHA1_80])
        let client = try DTLSEndpoint(identity: clientIdentity, role: .client, expectedFingerprint: serverIdentity.fingerprint)
        let server = try DTLSEndpoint(identity: serverIdentity, role: .server, expectedFingerprint: clientIdentity.fingerprint)
        let outcome = DTLSMemoryHandshake.run(client: client, server: server)
        #expect(outcome.clientKeys == nil && outcome.serverKeys == nil)
        #expect(Set(outcome.failures) == [.noSRTPProfile(offered: [.aeadAES128GCM]), .noSRTPProfile(offered: [.aes128CMHMACSHA1_80])])
        #expect(
            DTLSFailure.noSRTPProfile(offered: [.aes128CMHMACSHA1_80]).description
                == "DTLS failed: the peer agreed none of the SRTP profiles vload offers (SRTP_AES128_CM_SHA1_80; use_srtp, RFC 5764)")
    }

    /// A handshake in memory that must complete: both endpoints connected, no failure, both
    /// sides' keys exported.
    private func handshake(
        client clientIdentity: DTLSIdentity, server serverIdentity: DTLSIdentity
    ) throws -> (DTLSMemoryHandshake.Outcome, SRTPKeyingMaterial, SRTPKeyingMaterial) {
        let client = try DTLSEndpoint(identity: clientIdentity, role: .client, expectedFingerprint: serverIdentity.fingerprint)
        let server = try DTLSEndpoint(identity: serverIdentity, role: .server, expectedFingerprint: clientIdentity.fingerprint)
        let outcome = DTLSMemoryHandshake.run(client: client, server: server)
        #expect(outcome.failures.isEmpty)
        #expect(client.isConnected && server.isConnected)
        return (outcome, try #require(outcome.clientKeys), try #require(outcome.serverKeys))
    }

    @Test("a key and salt of another profile's length is a one-line error")
    func keyLength() {
        #expect(throws: SRTPError.keyLength(30, profile: .aeadAES128GCM)) {
            try SRTPSession(profile: .aeadAES128GCM, keyAndSalt: [UInt8](repeating: 1, count: 30), direction: .outbound)
        }
        #expect(SRTPError.keyLength(30, profile: .aeadAES128GCM).description == "SRTP key and salt of 30 bytes, not SRTP_AEAD_AES_128_GCM's 28")
    }

    /// The client's RTP protected with its keys and checked with the server's: the header stays
    /// clear, the payload does not, the packet grows by the profile's tag, and a replay and a
    /// changed byte are refused (libsrtp2: 9 replay, 7 authentication failure).
    private func expectSRTPRoundTrip(from clientKeys: SRTPKeyingMaterial, to serverKeys: SRTPKeyingMaterial, tagBytes: Int) throws {
        let sender = try SRTPSession(keys: clientKeys, direction: .outbound)
        let receiver = try SRTPSession(keys: serverKeys, direction: .inbound)
        let rtp: [UInt8] = [0x80, 111, 0x12, 0x34, 0, 0, 0x03, 0xC0, 0xDE, 0xAD, 0xBE, 0xEF] + Array(repeating: 0x55, count: 60)
        let protected = try sender.protect(rtp)
        #expect(protected.count == rtp.count + tagBytes && clientKeys.profile.tagBytes == tagBytes)
        #expect(protected[..<12] == rtp[..<12] && protected[12..<72] != rtp[12...])
        #expect(try receiver.unprotect(protected) == rtp)
        #expect(throws: SRTPError.library(status: 9, during: "srtp_unprotect")) { try receiver.unprotect(protected) }
        var tampered = try sender.protect(rtp.enumerated().map { $0.offset == 3 ? 0x35 : $0.element })
        tampered[20] ^= 1
        #expect(throws: SRTPError.library(status: 7, during: "srtp_unprotect")) { try receiver.unprotect(tampered) }
    }

    @Test("a peer certificate that is not the answer's fingerprint fails the handshake")
    func fingerprintMismatch() throws {
        let clientIdentity = try DTLSIdentity()
        let serverIdentity = try DTLSIdentity()
        let client = try DTLSEndpoint(identity: clientIdentity, role: .client, expectedFingerprint: clientIdentity.fingerprint)
        let server = try DTLSEndpoint(identity: serverIdentity, role: .server, expectedFingerprint: clientIdentity.fingerprint)
        let outcome = DTLSMemoryHandshake.run(client: client, server: server)
        #expect(outcome.failures == [.fingerprintMismatch(expected: clientIdentity.fingerprint, actual: serverIdentity.fingerprint)])
        #expect(outcome.clientKeys == nil && client.hasFailed)
    }

    @Test("a client whose flight goes unanswered arms OpenSSL's retransmission timer")
    func retransmissionTimer() throws {
        let identity = try DTLSIdentity()
        let client = try DTLSEndpoint(identity: identity, role: .client, expectedFingerprint: identity.fingerprint)
        #expect(client.timeoutUs == nil)
        let hello = client.start().datagrams
        #expect(hello.count == 1)
        let timeoutUs = try #require(client.timeoutUs)
        // OpenSSL 3.0's first DTLS timeout is one second.
        #expect(timeoutUs > 0 && timeoutUs <= 1_000_000)
    }

    @Test("hanging up sends one close_notify: a DTLS alert record the peer reads as the end, and nothing is written after it")
    func shutdownSendsCloseNotify() throws {
        let identities = (client: try DTLSIdentity(), server: try DTLSIdentity())
        func pair() throws -> (client: DTLSEndpoint, server: DTLSEndpoint) {
            (
                try DTLSEndpoint(identity: identities.client, role: .client, expectedFingerprint: identities.server.fingerprint),
                try DTLSEndpoint(identity: identities.server, role: .server, expectedFingerprint: identities.client.fingerprint)
            )
        }
        let (client, server) = try pair()
        #expect(client.shutdown() == DTLSEndpoint.Output())  // nothing before the handshake
        #expect(DTLSMemoryHandshake.run(client: client, server: server).failures.isEmpty)
        let goodbye = client.shutdown().datagrams
        #expect(goodbye.count == 1)
        let record = try #require(goodbye.first)
        // RFC 6347 §4.1: content type 21 (alert), DTLS 1.2 (254, 253), epoch 1 (encrypted), and a
        // length that is the rest of the datagram: one record, the alert under the session's keys.
        #expect(record.count > DTLSRecords.headerBytes)
        #expect(record[0] == 21 && record[1] == 0xFE && record[2] == 0xFD && record[3] == 0 && record[4] == 1)
        #expect(Int(record[11]) << 8 | Int(record[12]) == record.count - DTLSRecords.headerBytes)
        #expect(client.isShutDown && client.shutdown() == DTLSEndpoint.Output())
        #expect(client.write(applicationData: [1, 2, 3]) == DTLSEndpoint.Output())
        // The peer reads it as the close_notify it is: no data, no failure, the end.
        let atServer = server.receive(record)
        #expect(atServer.peerClosed && atServer.applicationData.isEmpty && atServer.failure == nil)
        // Application data before it in the same flight still arrives first.
        let (other, otherServer) = try pair()
        #expect(DTLSMemoryHandshake.run(client: other, server: otherServer).failures.isEmpty)
        let flight = other.write(applicationData: [7, 8]).datagrams + other.shutdown().datagrams
        let read = otherServer.receive(flight.flatMap { $0 })
        #expect(read.applicationData == [[7, 8]] && read.peerClosed)
    }

    @Test("a write larger than a record may carry is dropped and counted before OpenSSL sees it, and the connection still works")
    func oversizeWriteDropped() throws {
        let identities = (client: try DTLSIdentity(), server: try DTLSIdentity())
        let client = try DTLSEndpoint(identity: identities.client, role: .client, expectedFingerprint: identities.server.fingerprint)
        let server = try DTLSEndpoint(identity: identities.server, role: .server, expectedFingerprint: identities.client.fingerprint)
        #expect(DTLSMemoryHandshake.run(client: client, server: server).failures.isEmpty)
        // One byte over: OpenSSL would have ended the connection with a fatal alert.
        #expect(client.write(applicationData: [UInt8](repeating: 9, count: DTLSEndpoint.mtuBytes + 1)) == DTLSEndpoint.Output())
        #expect(client.oversizeWritesDropped == 1 && !client.hasFailed)
        // Exactly the bound still goes, and the peer reads it and what follows.
        let largest = [UInt8](repeating: 5, count: DTLSEndpoint.mtuBytes)
        let written = client.write(applicationData: largest)
        #expect(written.failure == nil && written.datagrams.count == 1)
        let next = client.write(applicationData: [1, 2, 3])
        let read = server.receive(written.datagrams.flatMap { $0 } + next.datagrams.flatMap { $0 })
        #expect(read.applicationData == [largest, [1, 2, 3]] && read.failure == nil)
        #expect(client.oversizeWritesDropped == 1)
    }

    @Test("records are packed whole into datagrams of at most the MTU")
    func recordPacking() {
        func record(_ bodyBytes: Int) -> [UInt8] {
            [22, 0xFE, 0xFD] + [UInt8](repeating: 0, count: 8) + [UInt8(bodyBytes >> 8), UInt8(bodyBytes & 0xFF)]
                + [UInt8](repeating: 1, count: bodyBytes)
        }
        let records = [record(500), record(600), record(100), record(1_300)]
        let datagrams = DTLSRecords.datagrams(from: records.flatMap { $0 }, mtuBytes: 1_200)
        #expect(datagrams.map(\.count) == [513 + 613, 113, 1_313])
        #expect(datagrams.flatMap { $0 } == records.flatMap { $0 })
    }

    @Test("the exported material splits into client and server key and salt (RFC 5764 §4.2)")
    func keyingMaterialLayout() {
        let exported = Array(UInt8(0)..<60)
        let client = SRTPKeyingMaterial(exported: exported, isClient: true, profile: .aes128CMHMACSHA1_80)
        #expect(client.local == Array(0..<16) + Array(32..<46))
        #expect(client.remote == Array(16..<32) + Array(46..<60))
        let server = SRTPKeyingMaterial(exported: exported, isClient: false, profile: .aes128CMHMACSHA1_80)
        #expect(server.local == client.remote && server.remote == client.local)
        // AEAD_AES_128_GCM's salts are 12 bytes (RFC 7714 §12): 56 bytes in all.
        let gcm = SRTPKeyingMaterial(exported: Array(UInt8(0)..<56), isClient: true, profile: .aeadAES128GCM)
        #expect(gcm.local == Array(0..<16) + Array(32..<44))
        #expect(gcm.remote == Array(16..<32) + Array(44..<56))
        #expect(SRTPKeyingMaterial.exportedBytes(for: .aeadAES128GCM) == 56 && SRTPKeyingMaterial.exportedBytes(for: .aes128CMHMACSHA1_80) == 60)
    }
}
