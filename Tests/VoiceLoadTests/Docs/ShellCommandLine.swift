/// The simple commands of a piece of shell text, split into words the way a POSIX shell would
/// for the cases docs use: quotes ('…' and "…"), backslash escapes and line continuations,
/// comments, and `;`, `|`, `&`, `&&`, `||` and newlines between commands. Variables (`$TOKEN`),
/// globs and `$(…)` are kept as written: the words are checked, never run.
struct ShellCommandLine: Equatable {
    var words: [String]
    /// 1-based line (within the text) where the command starts.
    var line: Int

    /// Every simple command of `text`, in order.
    static func commands(in text: String) -> [ShellCommandLine] {
        var commands: [ShellCommandLine] = []
        var words: [String] = []
        var word: String?
        var line = 1
        var start = 1
        var quote: Character?
        var characters = Array(text)[...]

        func endWord() {
            if let finished = word { words.append(finished) }
            word = nil
        }
        func endCommand() {
            endWord()
            if !words.isEmpty { commands.append(ShellCommandLine(words: words, line: start)) }
            words = []
        }

        while let character = characters.popFirst() {
            if character == "\n" { line += 1 }
            if words.isEmpty, word == nil, quote == nil { start = line }
            switch quote {
            case "'":
                if character == "'" { quote = nil } else { word!.append(character) }
                continue
            case "\"":
                if character == "\"" {
                    quote = nil
                } else if character == "\\", let next = characters.first, "\"\\$`\n".contains(next) {
                    characters.removeFirst()
                    if next == "\n" { line += 1 } else { word!.append(next) }
                } else {
                    word!.append(character)
                }
                continue
            default:
                break
            }
            switch character {
            case "'", "\"":
                quote = character
                word = word ?? ""
            case "\\":
                guard let next = characters.popFirst() else { break }
                if next == "\n" { line += 1 } else { word = (word ?? "") + String(next) }
            case "#" where word == nil:
                while let next = characters.first, next != "\n" { characters.removeFirst() }
            case " ", "\t":
                endWord()
            case "\n", ";", "|", "&":
                endCommand()
            default:
                word = (word ?? "") + String(character)
            }
        }
        endCommand()
        return commands
    }

    /// The arguments of a `vload` command (`vload`, `scripts/vload`, `/usr/local/bin/vload`), after
    /// any leading `NAME=value` assignments; nil for any other command.
    var vloadArguments: [String]? {
        let rest = words.drop { $0.contains("=") && !$0.hasPrefix("-") && $0.first?.isLetter == true }
        guard let program = rest.first, program == "vload" || program.hasSuffix("/vload") else { return nil }
        return Array(rest.dropFirst())
    }
}
