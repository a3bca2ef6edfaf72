import Foundation
import Yams

/// A CI configuration of examples/ci/, read as YAML.
struct CIExample {
    static let gitHubActions = "examples/ci/github-actions.yml"
    static let gitLab = "examples/ci/gitlab-ci.yml"

    /// GitLab's top-level keywords: every other top-level key not starting with `.` is a job.
    static let gitLabKeywords: Set<String> = [
        "default", "include", "stages", "variables", "workflow", "image", "services", "cache", "before_script",
        "after_script", "spec",
    ]

    var path: String
    var root: Node

    init(path: String) throws {
        self.path = path
        let text = try String(contentsOfFile: repositoryRoot() + "/" + path, encoding: .utf8)
        guard let root = try Yams.compose(yaml: text) else { throw CocoaError(.fileReadCorruptFile) }
        self.root = root
    }

    /// The value of `key` in `node`, a mapping; keys are compared as written (so GitHub's `on`
    /// is found even though YAML 1.1 would read it as a boolean).
    static func value(_ key: String, in node: Node?) -> Node? {
        node?.mapping?.first { $0.key.string == key }?.value
    }

    /// The mapping's entries as (key, value), keys as written.
    static func entries(of node: Node?) -> [(key: String, value: Node)] {
        (node?.mapping ?? [:]).compactMap { pair in pair.key.string.map { ($0, pair.value) } }
    }

    /// GitLab jobs: top-level entries that are neither keywords nor hidden (`.name`).
    var gitLabJobs: [(name: String, job: Node)] {
        Self.entries(of: root).filter { !Self.gitLabKeywords.contains($0.key) && !$0.key.hasPrefix(".") }
            .map { ($0.key, $0.value) }
    }

    /// The shell text the file runs: GitHub steps' `run`, GitLab jobs' `before_script`, `script`
    /// and `after_script` (and the top-level ones).
    var shellScripts: [String] {
        var scripts: [String] = []
        for (_, job) in Self.entries(of: Self.value("jobs", in: root)) {
            for step in Self.value("steps", in: job)?.sequence ?? [] {
                if let run = Self.value("run", in: step)?.string { scripts.append(run) }
            }
        }
        let gitLabHolders = [root] + gitLabJobs.map(\.job)
        for holder in gitLabHolders {
            for key in ["before_script", "script", "after_script"] {
                guard let node = Self.value(key, in: holder) else { continue }
                if let line = node.string { scripts.append(line) }
                scripts += (node.sequence ?? []).compactMap(\.string)
            }
        }
        return scripts
    }

    /// Every `vload` command line of `shellScripts`, as its arguments.
    var vloadCommands: [[String]] {
        shellScripts.flatMap { ShellCommandLine.commands(in: $0).compactMap(\.vloadArguments) }
    }
}
