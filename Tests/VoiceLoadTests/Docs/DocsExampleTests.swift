import Foundation
import Testing

/// The examples of README.md and docs/*.md work as written: every `vload` command line of a
/// ```sh block parses against the current CLI, and every ```yaml block that is a scenario loads.
/// A block that is wrong on purpose follows a `<!-- docs-check: skip -->` line.
@Suite struct DocsExampleTests {
    @Test(arguments: DocsPage.allPaths())
    func vloadCommandLinesParse(page: String) throws {
        for command in try DocsPage(path: page).vloadCommands {
            let problem = VLoadCommandCheck.problem(with: command.arguments)
            #expect(problem == nil, "\(page):\(command.line): vload \(command.arguments.joined(separator: " ")): \(problem ?? "")")
        }
    }

    @Test(arguments: DocsPage.allPaths())
    func scenarioExamplesLoad(page: String) throws {
        let docs = try DocsPage(path: page)
        for block in docs.blocks where block.isYAML && !block.skipped && DocsScenarioCheck.isScenario(block.text) {
            let name = "docs-example-" + (page as NSString).lastPathComponent.replacingOccurrences(of: ".md", with: "") + "-\(block.line)"
            let problem = DocsScenarioCheck.problem(with: block.text, name: name)
            #expect(problem == nil, "\(page):\(block.line): \(problem ?? "")")
        }
    }

    /// The checks above find something to check: a broken extractor would pass them vacuously.
    @Test func theDocsHoldExamplesToCheck() throws {
        let pages = try DocsPage.allPaths().map(DocsPage.init(path:))
        #expect(pages.contains { $0.path == "docs/ci.md" })
        #expect(pages.flatMap(\.vloadCommands).count >= 20)
        let scenarios = pages.flatMap(\.blocks).filter { $0.isYAML && DocsScenarioCheck.isScenario($0.text) }
        #expect(scenarios.count >= 2)
    }
}
