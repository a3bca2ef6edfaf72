import AgentSimulator
import ArgumentParser
import Dispatch
import Foundation
import NIOCore
import NIOPosix
import VoiceLoad
import WSCore
import WSServer

/// `vload serve`: the built-in agent simulator alone, until Ctrl-C.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the built-in voice-agent simulator as a WebSocket server until interrupted."
    )

    @Option(help: "Wire protocol to speak.")
    var dialect = "datagrid"

    @Option(help: "Address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "Port to listen on (0 picks a free one).")
    var port = 8765

    @Option(help: ArgumentHelp("Event-loop threads that serve the sessions (default: one per core).", valueName: "n"))
    var threads: Int?

    @Option(
        name: .customLong("tls-cert"),
        help: ArgumentHelp(
            "Serve TLS (wss://) with this PEM certificate chain, leaf first; needs --tls-key.",
            valueName: "pem"
        )
    )
    var tlsCertificate: String?

    @Option(name: .customLong("tls-key"), help: ArgumentHelp("The unencrypted PEM private key of --tls-cert.", valueName: "pem"))
    var tlsKey: String?

    @OptionGroup(title: "Simulator behaviour")
    var simulator: SimulatorOptions

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be 0–65535 (got \(port))") }
        if let threads, !(1...256).contains(threads) { throw ValidationError("--threads must be 1–256 (got \(threads))") }
        if tlsCertificate != nil, tlsKey == nil { throw ValidationError("--tls-cert needs --tls-key (the certificate's private key)") }
        if tlsKey != nil, tlsCertificate == nil { throw ValidationError("--tls-key needs --tls-cert (the certificate it belongs to)") }
    }

    func run() async throws {
        let configuration = try simulator.configuration(dialect: dialect)
        let tls = try tlsCertificate.map { certificate throws(InputError) in
            try ServerTLS(certificateFile: certificate, keyFile: tlsKey ?? "")
        }
        let group = MultiThreadedEventLoopGroup(numberOfThreads: threads ?? System.coreCount)
        let server: AgentSimulator
        do {
            server = try await AgentSimulator.start(configuration: configuration, host: host, port: port, group: group, tls: tls)
        } catch let error as InputError {
            throw error
        } catch {
            throw InputError("cannot listen on \(host):\(port): \(error)")
        }
        // A WebRTC dialect's callers post their offers over HTTP (`/api/offer`, `/v1/realtime/calls`).
        // An IPv6 address is written in brackets, as a URL names it.
        let urlHost = URLHost.bracketed(host)
        let address =
            server.offerPath.map { "\(tls == nil ? "http" : "https")://\(urlHost):\(server.port) (offers to \($0))" }
            ?? "\(tls == nil ? "ws" : "wss")://\(urlHost):\(server.port)/ws/voice"
        print(
            "vload agent simulator listening on \(address) "
                + "(dialect \(dialect), reply latency \(configuration.replyLatency) ms, VAD silence \(configuration.vadSilenceMs) ms"
                + (configuration.workers.map { ", \($0) workers" } ?? "")
                + (configuration.faults.isEmpty ? "" : ", faults \(configuration.faults)")
                + (configuration.srtpProfiles.map { ", SRTP profiles " + $0.map(\.ianaName).joined(separator: ", ") } ?? "") + ")"
        )
        print("press Ctrl-C to stop")
        fflush(nil)  // the address at once, for a script reading a pipe (`--port 0`)
        await Self.waitForTerminationSignal()
        try? await server.stop()
        let settled = await server.settle(timeoutMs: 2_000)
        let totals = server.statistics
        print(
            "stopped: \(totals.sessions) sessions, \(totals.userTurns) user turns, \(totals.replies) replies, "
                + "\(totals.interruptions) interruptions, \(totals.toolCalls) tool calls, \(totals.toolResults) tool results, "
                + "\(totals.toolResultTimeouts) tool result timeouts" + (settled ? "" : " (sessions still open are not counted)")
        )
        if !configuration.faults.isEmpty {
            print("simulator injected: " + SummaryTable.injectedText(server.faultsInjected))
        }
        if let late = server.replyLateness.summary {
            let ms = { (value: Double) in String(format: "%.3f", value) }
            print(
                "reply timing: \(late.count) replies started late by p50 \(ms(late.p50Ms)) ms, p99 \(ms(late.p99Ms)) ms, "
                    + "max \(ms(late.maxMs)) ms (after the end of speech plus the drawn latency)"
            )
        }
        try await group.shutdownGracefully()
    }

    /// Suspends until SIGINT or SIGTERM.
    private static func waitForTerminationSignal() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let once = SignalLatch(continuation)
            for signalNumber in [SIGINT, SIGTERM] {
                signal(signalNumber, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
                source.setEventHandler { once.fire() }
                source.resume()
                once.keep(source)
            }
        }
    }
}

/// Resumes a continuation on the first signal only, and keeps the signal sources alive.
private final class SignalLatch: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Void, Never>?
    private var sources: [any DispatchSourceSignal] = []

    init(_ continuation: CheckedContinuation<Void, Never>) {
        self.continuation = continuation
    }

    func keep(_ source: any DispatchSourceSignal) {
        lock.withLock { sources.append(source) }
    }

    func fire() {
        let continuation = lock.withLock {
            let pending = self.continuation
            self.continuation = nil
            return pending
        }
        continuation?.resume()
    }
}
