import Foundation

/// A fenced code block of a Markdown page: its language (the word after the opening fence),
/// its text, and where it starts.
///
/// A block whose opening fence directly follows the line `<!-- docs-check: skip -->` is marked
/// `skipped`: a deliberately wrong example (one that shows an error) that the docs tests leave
/// alone. The comment does not show on the rendered page.
struct MarkdownCodeBlock {
    static let skipMarker = "<!-- docs-check: skip -->"

    var language: String
    var text: String
    /// 1-based line of the opening fence.
    var line: Int
    var skipped: Bool

    /// The fenced blocks (``` or ~~~) of `markdown`, in order.
    static func blocks(in markdown: String) -> [MarkdownCodeBlock] {
        let lines = markdown.components(separatedBy: "\n")
        var blocks: [MarkdownCodeBlock] = []
        var open: (fence: String, language: String, line: Int, skipped: Bool)?
        var body: [String] = []
        for (index, rawLine) in lines.enumerated() {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if let current = open {
                if line.hasPrefix(current.fence), line.allSatisfy({ $0 == current.fence.first }) {
                    blocks.append(
                        MarkdownCodeBlock(
                            language: current.language,
                            text: body.joined(separator: "\n"),
                            line: current.line,
                            skipped: current.skipped
                        )
                    )
                    open = nil
                } else {
                    body.append(rawLine)
                }
                continue
            }
            guard let marker = line.first, marker == "`" || marker == "~" else { continue }
            let fence = String(line.prefix { $0 == marker })
            guard fence.count >= 3 else { continue }
            let language = line.dropFirst(fence.count).split(separator: " ").first.map(String.init) ?? ""
            let previous = index > 0 ? lines[index - 1].trimmingCharacters(in: .whitespaces) : ""
            open = (fence, language.lowercased(), index + 1, previous == skipMarker)
            body = []
        }
        return blocks
    }

    /// Whether the block holds shell commands.
    var isShell: Bool { ["sh", "bash", "shell"].contains(language) }

    /// Whether the block holds YAML.
    var isYAML: Bool { ["yaml", "yml"].contains(language) }
}
