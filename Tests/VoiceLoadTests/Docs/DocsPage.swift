import Foundation

/// A user-facing Markdown page: README.md and every docs/*.md (pages added later are found too).
struct DocsPage {
    /// Relative to the repository's root, e.g. `docs/ci.md`.
    var path: String
    var blocks: [MarkdownCodeBlock]

    /// The relative paths of README.md and docs/*.md, sorted.
    static func allPaths() -> [String] {
        let docs = (try? FileManager.default.contentsOfDirectory(atPath: repositoryRoot() + "/docs")) ?? []
        return ["README.md"] + docs.filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
    }

    init(path: String) throws {
        self.path = path
        let text = try String(contentsOfFile: repositoryRoot() + "/" + path, encoding: .utf8)
        blocks = MarkdownCodeBlock.blocks(in: text)
    }

    /// Every `vload` command line of the page's shell blocks that are not skipped, with the
    /// page line it starts on.
    var vloadCommands: [(line: Int, arguments: [String])] {
        blocks.filter { $0.isShell && !$0.skipped }.flatMap { block in
            ShellCommandLine.commands(in: block.text).compactMap { command in
                command.vloadArguments.map { (line: block.line + command.line, arguments: $0) }
            }
        }
    }
}
