import Foundation
import NIOSSL
import Testing
import WSClient

@testable import VoiceLoad

@Suite("Client TLS options: one configuration per run, bad files one line")
struct ClientTLSOptionsTests {
    private func expectError(_ options: ClientTLSOptions, mentions needles: [String]) {
        do {
            _ = try options.configuration()
            Issue.record("\(options): expected an input error")
        } catch {
            for needle in needles { #expect(error.message.contains(needle), "\(error.message)") }
            #expect(!error.message.contains("\n"))
        }
    }

    private func temporaryFile(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("vload-tls-\(UUID().uuidString).pem").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("nothing asked: no configuration (the shared default context)")
    func defaults() throws {
        #expect(ClientTLSOptions().isDefault)
        #expect(try ClientTLSOptions().configuration() == nil)
    }

    @Test("--insecure turns verification off; the plan says so and a wss plan measures tls_ms")
    func insecure() throws {
        let insecure = try #require(try ClientTLSOptions(insecure: true).configuration())
        let dialect = ScriptedDialect()
        let scenario = Scenario(name: "s", sourcePath: "s.yaml", steps: [.connect(timeoutMs: 1)])
        func plan(_ url: String, _ tls: TLSConfiguration?) throws -> SessionPlan {
            SessionPlan(
                scenario: scenario,
                target: .webSocket(try WebSocketEndpoint(parsing: url)),
                headers: [],
                dialect: dialect,
                tlsConfiguration: tls,
                frameSets: [:],
                silenceFrame: dialect.prepareAudio([0, 0]),
                frameMs: 40
            )
        }
        let secure = try plan("wss://example.com/ws", insecure)
        #expect(secure.tlsInsecure)
        #expect(secure.metricsMeasured.isSuperset(of: [.connectMs, .dnsMs, .tcpMs, .tlsMs, .upgradeMs]))
        let plain = try plan("ws://example.com/ws", nil)
        #expect(!plain.tlsInsecure)
        #expect(!plain.metricsMeasured.contains(.tlsMs) && plain.metricsMeasured.contains(.upgradeMs))
        #expect(try !plan("wss://example.com/ws", .makeClientConfiguration()).tlsInsecure)
    }

    @Test("a client certificate needs its key and the key its certificate")
    func bothOrNeither() throws {
        let file = try temporaryFile("x")
        expectError(ClientTLSOptions(certificateFile: file), mentions: ["--cert needs --key"])
        expectError(ClientTLSOptions(keyFile: file), mentions: ["--key needs --cert"])
    }

    @Test("an unreadable or non-PEM file is one line naming the option and the file")
    func badFiles() throws {
        expectError(ClientTLSOptions(caFile: "/nonexistent/ca.pem"), mentions: ["--ca-file /nonexistent/ca.pem", "No such file"])
        let garbage = try temporaryFile("not a certificate\n")
        expectError(ClientTLSOptions(caFile: garbage), mentions: ["--ca-file \(garbage)"])
        expectError(ClientTLSOptions(certificateFile: garbage, keyFile: garbage), mentions: ["--cert \(garbage)"])
        expectError(ClientTLSOptions(caFile: "/nonexistent/ca.pem", insecure: true), mentions: ["--ca-file"])
    }
}
