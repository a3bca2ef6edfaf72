import Foundation
import VoiceLoad
import Yams

/// Whether a YAML example of the docs is a scenario, and whether it loads.
///
/// A block is a scenario when it is a mapping with a top-level `steps:` (a fragment such as
/// `- repeat: 12` with nested `steps:` is not). It is loaded by `ScenarioLoader.parse` as if it
/// were saved as `scenarios/NAME.yaml`, which is where the docs tell users to put one: its
/// relative audio paths (`audio/hello.wav`) then resolve against `scenarios/`, and every clip it
/// speaks must exist there.
enum DocsScenarioCheck {
    /// Whether `yaml` is a scenario (a mapping with `steps`); false for YAML that does not parse.
    static func isScenario(_ yaml: String) -> Bool {
        guard let root = try? Yams.compose(yaml: yaml), let mapping = root.mapping else { return false }
        return mapping.keys.contains { $0.string == "steps" }
    }

    /// nil when the scenario loads and its audio exists, else the problem. `name` names the
    /// file it is loaded as (`scenarios/NAME.yaml`).
    static func problem(with yaml: String, name: String) -> String? {
        let path = repositoryRoot() + "/scenarios/\(name).yaml"
        let scenario: Scenario
        do {
            scenario = try ScenarioLoader.parse(yaml: yaml, path: path)
        } catch {
            return error.description
        }
        let clips = ScenarioStep.flattened(scenario.steps).compactMap(\.spokenClip).map(\.audioPath)
        let missing = clips.filter { !FileManager.default.fileExists(atPath: $0) }
        guard missing.isEmpty else { return "missing audio: " + missing.joined(separator: ", ") }
        return nil
    }
}
