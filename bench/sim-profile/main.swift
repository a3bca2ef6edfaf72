// The built-in simulator for valgrind (bench/sim-callgrind.sh): `vload serve` cannot run under
// valgrind 3.19, which stops with an internal error on the signal thread that `dispatch_main`
// (Swift's async main on Linux) leaves behind. This program starts the same `AgentSimulator`
// from a synchronous main, on one event loop, serves for a while and prints what it did.
//
//   vload-sim-profile DIALECT PORT SECONDS
import AgentSimulator
import Dispatch
import Foundation
import NIOPosix
import VoiceLoad

nonisolated func serve(dialect: String, port: Int, seconds: Int) async throws {
    var configuration = SimulatorConfiguration()
    configuration.dialect = dialect
    let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    let simulator = try await AgentSimulator.start(configuration: configuration, port: port, group: group)
    print("listening on \(simulator.url)")
    fflush(nil)
    try await Task.sleep(for: .seconds(seconds))
    let totals = simulator.statistics
    let late = simulator.replyLateness.summary
    print(
        "\(totals.sessions) sessions, \(totals.replies) replies, late p50 \(late?.p50Ms ?? 0) ms, "
            + "p99 \(late?.p99Ms ?? 0) ms (under valgrind: slowed down many times)"
    )
    fflush(nil)
    try await simulator.stop()
    try await group.shutdownGracefully()
}

let arguments = CommandLine.arguments
guard arguments.count == 4, let port = Int(arguments[2]), let seconds = Int(arguments[3]) else {
    print("usage: vload-sim-profile DIALECT PORT SECONDS")
    exit(2)
}
let dialect = arguments[1]
let done = DispatchSemaphore(value: 0)
Task.detached {
    do {
        try await serve(dialect: dialect, port: port, seconds: seconds)
    } catch {
        print("vload-sim-profile: \(error)")
    }
    done.signal()
}
done.wait()
