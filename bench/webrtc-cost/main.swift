// The CPU cost of the WebRTC transport's cryptography (BENCHMARKS.md, "WebRTC transport"):
// `handshake N` runs N DTLS 1.2 handshakes between two in-process endpoints (both sides' CPU,
// certificates made once, as a run makes its one); `srtp N` protects and unprotects N RTP
// packets the size of a 20 ms Opus frame of speech, with the SRTP profile the handshake agrees
// (vload's first choice) or the one named third (`SRTP_AES128_CM_SHA1_80`). Prints the CPU time
// of the timed part.
import Foundation
import WebRTC

let arguments = CommandLine.arguments
let profileNamed = arguments.count == 4 ? SRTPProfile.allCases.first { "\($0)" == arguments[3] } : nil
guard arguments.count == 3 || profileNamed != nil, let count = Int(arguments[2]), count > 0, ["handshake", "srtp"].contains(arguments[1])
else {
    let profiles = SRTPProfile.allCases.map(\.description).joined(separator: "|")
    FileHandle.standardError.write(Data("usage: vload-webrtc-bench handshake|srtp N [\(profiles)]\n".utf8))
    exit(2)
}

func processCPUSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// One handshake, datagrams passed in memory until neither side has more (16 flights at most).
func handshake(_ clientIdentity: DTLSIdentity, _ serverIdentity: DTLSIdentity) throws -> SRTPKeyingMaterial {
    let client = try DTLSEndpoint(identity: clientIdentity, role: .client, expectedFingerprint: serverIdentity.fingerprint)
    let server = try DTLSEndpoint(identity: serverIdentity, role: .server, expectedFingerprint: clientIdentity.fingerprint)
    var toServer = client.start().datagrams
    var keys: SRTPKeyingMaterial?
    for _ in 0..<16 where !toServer.isEmpty {
        let toClient = toServer.flatMap { server.receive($0).datagrams }
        toServer = []
        for datagram in toClient {
            let output = client.receive(datagram)
            toServer += output.datagrams
            keys = keys ?? output.connected
        }
    }
    guard let keys, server.isConnected else { throw DTLSFailure.handshake("the benchmark's handshake did not complete") }
    return keys
}

let clientIdentity = try DTLSIdentity(srtpProfiles: profileNamed.map { [$0] } ?? SRTPProfile.offered)
let serverIdentity = try DTLSIdentity()
if arguments[1] == "handshake" {
    let start = processCPUSeconds()
    for _ in 0..<count { _ = try handshake(clientIdentity, serverIdentity) }
    let seconds = processCPUSeconds() - start
    print(String(format: "handshake: %d DTLS 1.2 handshakes, both sides: %.2f ms CPU each", count, seconds * 1_000 / Double(count)))
} else {
    let keys = try handshake(clientIdentity, serverIdentity)
    let sender = try SRTPSession(keys: keys, direction: .outbound)
    // The peer's inbound session for the client's stream is keyed with the client's key and salt.
    let receiver = try SRTPSession(profile: keys.profile, keyAndSalt: keys.local, direction: .inbound)
    // 12-byte header and 80 bytes of payload: a 20 ms Opus frame of speech at libopus's default rate.
    var rtp: [UInt8] = [0x80, 111, 0, 0, 0, 0, 0, 0, 0x12, 0x34, 0x56, 0x78] + [UInt8](repeating: 0x5A, count: 80)
    var checksum = 0
    let start = processCPUSeconds()
    for index in 0..<count {
        rtp[2] = UInt8(index >> 8 & 0xFF)
        rtp[3] = UInt8(index & 0xFF)
        let protected = try sender.protect(rtp)
        checksum &+= protected.count
        checksum &+= try receiver.unprotect(protected).count
    }
    let seconds = processCPUSeconds() - start
    print(String(format: "srtp: %d packets of 92 bytes protected and unprotected (%@): %.2f µs CPU a packet (both directions)", count, "\(keys.profile)", seconds * 1e6 / Double(count)))
    precondition(checksum == count * (2 * rtp.count + keys.profile.tagBytes), "a packet changed size")
}
