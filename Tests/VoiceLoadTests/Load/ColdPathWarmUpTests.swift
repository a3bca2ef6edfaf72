import NIOPosix
import Testing

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
}
