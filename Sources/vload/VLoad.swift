import ArgumentParser
import Foundation
import VoiceLoad

/// The `vload` command: subcommands, and exit codes for bad input (2) and an invalid run (3).
@main
struct VLoad: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vload",
        abstract: "Load and latency tester for real-time voice-agent WebSocket endpoints.",
        discussion: """
            Examples:
              vload --clients 50 --scenario greeting
              vload --clients 20 --scenario greeting --duration 2m --ramp-up 10s
              vload --scenario greeting --url wss://host/ws/voice --dialect datagrid
              vload serve --port 8765

            With no --url, vload starts its built-in agent simulator on 127.0.0.1 and runs \
            against it. 'vload run --help' lists every option of a run.

            Exit codes: 0 the run completed; 2 bad input (scenario, audio, dialect, URL, \
            flag); 3 the run is invalid because the generator itself was saturated.
            """,
        version: VLoadVersion.current,
        subcommands: [RunCommand.self, ValidateCommand.self, ServeCommand.self, DialectsCommand.self],
        defaultSubcommand: RunCommand.self
    )

    static func main() async {
        do {
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

    /// Prints a one-line error and exits with code 2.
    static func fail(_ message: String) -> Never {
        let line = message.split(whereSeparator: \.isNewline).map(String.init).joined(separator: " ")
        FileHandle.standardError.write(Data("vload: error: \(line)\n".utf8))
        Foundation.exit(2)
    }
}
