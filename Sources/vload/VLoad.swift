import ArgumentParser
import Foundation
import VoiceLoad

/// The `vload` command: subcommands, and exit codes for bad input (2), an invalid run (3) and the gate's verdicts.
@main
struct VLoad: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vload",
        abstract: "Load and latency tester for real-time voice-agent endpoints, over WebSocket and WebRTC.",
        discussion: """
            Examples:
              vload --clients 50 --scenario greeting
              vload --clients 20 --scenario greeting --duration 2m --ramp-up 10s
              vload --scenario greeting --arrival-rate 5/s --duration 5m --max-in-flight 200
              vload --scenario greeting --stages '30s:50,2m:50,30s:0'
              vload --scenario greeting --url wss://host/ws/voice --dialect datagrid
              vload serve --port 8765

            With no --url, vload starts its built-in agent simulator on 127.0.0.1 and runs \
            against it. 'vload run --help' lists every option of a run.

              vload --scenario greeting --clients 20 --threshold 'first_audio_from_end_ms.p95 < 900' --warmup 10s
              vload compare reports/base/report.json reports/new/report.json --tolerance 10%
              vload --scenario greeting --clients 400 --url wss://host/ws/voice --segment 2/4   # one share of four
              vload merge reports/split/segment-*/report.json --threshold 'error_rate < 1%'
              vload capacity --scenario greeting --slo 'first_audio_from_end_ms.p95 < 1200' --slo 'error_rate < 1%'

            Exit codes: 0 the run completed and every threshold passed; 1 a threshold failed \
            (or --baseline / compare found a regression); 2 bad input (scenario, audio, \
            dialect, URL, flag, threshold, unreadable report); 3 the run is invalid: the \
            generator itself was saturated (send-lag or receive-lag p99 above --max-lag-ms, 2 ms by default, or every core busy), \
            or a threshold had no samples, or too few for its percentile (20, and 100 for p99, \
            1000 for p99.9) on both sides of its bound (all on one side pass or fail it); 4 infrastructure failure: no session reached the endpoint (every \
            one failed at connect, TLS, upgrade or the REST step).

            Reference pages, printed offline ('vload help COMMAND' is a command's help):
            \(HelpTopic.overview)
            """,
        version: VLoadVersion.current,
        subcommands: [
            RunCommand.self, CapacityCommand.self, MergeCommand.self, CompareCommand.self, ValidateCommand.self,
            ServeCommand.self, DialectsCommand.self, WireCommand.self,
        ],
        defaultSubcommand: RunCommand.self
    )

    static func main() async {
        do {
            if let topic = try HelpTopic.requested(by: Array(CommandLine.arguments.dropFirst()), commands: commandNames) {
                print(topic.text, terminator: "")
                return
            }
            var command = try parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch let error as InputError {
            fail(error.message)
        } catch let error as ExitCode {
            Foundation.exit(error.rawValue)
        } catch {
            if exitCode(for: error) == .success {
                print(fullMessage(for: error))
                Foundation.exit(0)
            }
            fail(message(for: error))
        }
    }

    /// The subcommands' names (and `help`): `vload help NAME` is that command's help, not a topic.
    static var commandNames: [String] {
        configuration.subcommands.map { $0._commandName } + ["help"]
    }

    /// Prints a one-line error and exits with code 2.
    static func fail(_ message: String) -> Never {
        let line = message.split(whereSeparator: \.isNewline).map(String.init).joined(separator: " ")
        FileHandle.standardError.write(Data("vload: error: \(line)\n".utf8))
        Foundation.exit(2)
    }
}
