import AgentSimulator
import ArgumentParser
import VoiceLoad

/// A scenario's `simulator:` block: what the built-in agent must do for the scenario to make
/// sense (long replies to barge in on, tool calls), written with the `--sim-*` flag names
/// (`reply_ms: 8000` is `--sim-reply-ms 8000`, `no_greeting: true` is `--sim-no-greeting`, a
/// `faults:` mapping is `--sim-faults` with its JSON text).
/// Flags given on the command line win.
extension SimulatorOptions {
    /// The block's settings as `--sim-*` arguments.
    static func arguments(for settings: [String: JSONValue]) -> [String] {
        settings.sorted { $0.key < $1.key }.flatMap { key, value -> [String] in
            let flag = "--sim-" + key.replacingOccurrences(of: "_", with: "-")
            switch value {
            case .bool(true): return [flag]
            case .bool(false), .null: return []
            case .integer(let integer): return [flag, String(integer)]
            case .number(let number):
                return [flag, number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : String(number)]
            case .string(let text): return [flag, text]
            case .array, .object: return [flag, JSONText.text(value)]
            }
        }
    }

    /// The scenario's settings with the command line's on top.
    func overriding(scenario: Scenario) throws(InputError) -> SimulatorOptions {
        guard !scenario.simulatorSettings.isEmpty else { return self }
        let base: SimulatorOptions
        do {
            base = try SimulatorOptions.parse(Self.arguments(for: scenario.simulatorSettings))
        } catch {
            let reason = SimulatorOptions.message(for: error).split(whereSeparator: \.isNewline).first.map(String.init) ?? "\(error)"
            throw InputError("\(scenario.sourcePath): simulator: \(reason)")
        }
        // The faults block is checked here, where its error can name the scenario file.
        if let faults = base.faults {
            do {
                _ = try FaultPlan(parsing: faults)
            } catch {
                throw InputError("\(scenario.sourcePath): simulator: faults: \(error.message)")
            }
        }
        return merged(over: base)
    }
}
