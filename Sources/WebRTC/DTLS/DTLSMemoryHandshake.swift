/// Two DTLS endpoints' handshake in memory: each flight's datagrams handed to the other end until
/// neither has more, at most 16 flights.
package enum DTLSMemoryHandshake {
    package struct Outcome {
        package var clientKeys: SRTPKeyingMaterial?
        package var serverKeys: SRTPKeyingMaterial?
        package var failures: [DTLSFailure] = []
        package var largestDatagramBytes = 0
    }

    package static func run(client: DTLSEndpoint, server: DTLSEndpoint) -> Outcome {
        var outcome = Outcome()
        var toServer = client.start().datagrams
        for _ in 0..<16 where !toServer.isEmpty {
            var toClient: [[UInt8]] = []
            for datagram in toServer {
                let output = server.receive(datagram)
                toClient += output.datagrams
                outcome.serverKeys = outcome.serverKeys ?? output.connected
                outcome.failures += output.failure.map { [$0] } ?? []
            }
            toServer = []
            for datagram in toClient {
                let output = client.receive(datagram)
                toServer += output.datagrams
                outcome.clientKeys = outcome.clientKeys ?? output.connected
                outcome.failures += output.failure.map { [$0] } ?? []
            }
            outcome.largestDatagramBytes = max(outcome.largestDatagramBytes, (toClient + toServer).map(\.count).max() ?? 0)
        }
        return outcome
    }
}
