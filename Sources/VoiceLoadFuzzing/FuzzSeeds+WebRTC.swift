import WebRTC

extension FuzzSeeds {
    /// STUN Binding messages as ICE exchanges them: a nominating request, a success with an IPv4
    /// and one with an IPv6 address, a 487 error, an indication and a request with an unknown
    /// attribute, each bare; and the request and a success signed and fingerprinted (a mutation
    /// of those rarely passes the CRC, so most seeds are bare to reach the attribute readers).
    static func stunMessages() -> [[UInt8]] {
        let transactionID = STUNTransactionID(bytes: Array(1...12))
        let key = Array("0123456789abcdefghijklmnop".utf8)
        let request = STUNMessage(
            type: .bindingRequest, transactionID: transactionID,
            attributes: [.username("peerUfrag:vloadUfrag"), .priority(1_853_824_767), .iceControlling(tieBreaker: 42), .useCandidate])
        let ipv4 = STUNMessage(
            type: .bindingSuccess, transactionID: transactionID, attributes: [.xorMappedAddress(STUNAddress(ipv4: "127.0.0.1", port: 50_123)!)])
        let ipv6 = STUNMessage(
            type: .bindingSuccess, transactionID: transactionID,
            attributes: [.xorMappedAddress(STUNAddress(ipBytes: [UInt8](repeating: 0, count: 15) + [1], port: 65_535))])
        let error = STUNMessage(type: .bindingError, transactionID: transactionID, attributes: [.errorCode(code: 487, reason: "Role Conflict")])
        let indication = STUNMessage(type: .bindingIndication, transactionID: transactionID, attributes: [.software("aioice")])
        let unknown = STUNMessage(
            type: .bindingRequest, transactionID: transactionID, attributes: [.iceControlled(tieBreaker: 7), .other(type: 0xC057, value: [1, 2, 3])])
        let messages = [request, ipv4, ipv6, error, indication, unknown]
        return messages.map { $0.serialized(integrityKey: nil, fingerprint: false) }
            + [request, ipv4].map { $0.serialized(integrityKey: key, fingerprint: true) }
    }

    /// SDP answers as aiortc and ICE-lite servers write them: media-level and session-level
    /// credentials, several candidates, another payload type for opus, LF or CRLF line ends.
    static func sdpAnswers() -> [String] {
        let fingerprint = "a=fingerprint:sha-256 " + (0..<32).map { _ in "A0" }.joined(separator: ":")
        let audio = [
            "m=audio 40000 UDP/TLS/RTP/SAVPF 111", "c=IN IP4 127.0.0.1", "a=sendrecv", "a=mid:0", "a=rtpmap:111 opus/48000/2",
            "a=candidate:a1b2 1 udp 2130706431 127.0.0.1 40000 typ host", "a=end-of-candidates",
        ]
        let header = ["v=0", "o=- 3900000000 0 IN IP4 0.0.0.0", "s=-", "t=0 0"]
        let credentials = ["a=ice-ufrag:peerUfrag", "a=ice-pwd:0123456789abcdefghijklmnop", fingerprint]
        let full = header + ["a=group:BUNDLE 0"] + audio + credentials + ["a=setup:active"]
        let lite = header + ["a=ice-lite"] + credentials + audio + ["a=setup:passive"]
        let otherPayloadType = header + ["m=audio 9 UDP/TLS/RTP/SAVPF 96 0", "a=rtpmap:96 OPUS/48000/2", "a=rtpmap:0 PCMU/8000"]
            + credentials + ["a=candidate:1 1 UDP 2122252543 127.0.0.1 5000 typ host generation 0", "a=candidate:1 2 UDP 2122252542 127.0.0.1 5001 typ host"]
        let twoCandidates = full + ["a=candidate:c3d4 1 udp 2130706175 ::1 40002 typ host"]
        return [
            full.joined(separator: "\r\n") + "\r\n", lite.joined(separator: "\n") + "\n", otherPayloadType.joined(separator: "\r\n"),
            twoCandidates.joined(separator: "\r\n") + "\r\n", (header + audio + credentials).joined(separator: "\n"),
        ]
    }
}
