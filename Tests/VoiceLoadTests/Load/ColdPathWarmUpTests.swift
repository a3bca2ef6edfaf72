import NIOPosix
import Testing
import WebRTC

@testable import VoiceLoad

@Suite("Cold-path warm-up")
struct ColdPathWarmUpTests {
    @Test("the warm-up's loopback exchange goes through: upgrade, a frame echoed, the close handshake")
    func exchangeGoesThrough() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let echoed = await ColdPathWarmUp.run(on: group.next())
        try await group.shutdownGracefully()
        #expect(echoed)
    }

    @Test("a WebRTC run's warm-up also goes through: DTLS in memory, SRTP both ways, STUN, usrsctp, an Opus frame")
    func webRTCGoesThrough() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let warmed = await ColdPathWarmUp.run(on: group.next(), webRTC: true)
        try await group.shutdownGracefully()
        #expect(warmed)
        #expect(WebRTCWarmUp.run(), "and again: once a process, its answer kept")
    }
}
