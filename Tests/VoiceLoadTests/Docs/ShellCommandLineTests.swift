import Testing

/// How the docs tests read shell blocks and Markdown fences.
@Suite struct ShellCommandLineTests {
    @Test func quotesContinuationsAndCommentsMakeOneCommand() {
        let text = """
            # a comment line
            vload --scenario greeting --clients 20 \\
                  --threshold 'first_audio_from_end_ms.p95 < 900' --threshold "error_rate < 1%"   # gate it
            """
        let commands = ShellCommandLine.commands(in: text)
        #expect(
            commands == [
                ShellCommandLine(
                    words: [
                        "vload", "--scenario", "greeting", "--clients", "20", "--threshold", "first_audio_from_end_ms.p95 < 900",
                        "--threshold", "error_rate < 1%",
                    ],
                    line: 2
                )
            ]
        )
    }

    @Test func pipesAndListsSeparateCommands() {
        let text = "printf '%s\\n' 'a|b' | vload wire --dialect datagrid && echo done; FOO=1 scripts/vload --clients 2"
        let commands = ShellCommandLine.commands(in: text)
        #expect(commands.map(\.words.first) == ["printf", "vload", "echo", "FOO=1"])
        #expect(commands[0].words == ["printf", "%s\\n", "a|b"])
        #expect(commands.compactMap(\.vloadArguments) == [["wire", "--dialect", "datagrid"], ["--clients", "2"]])
    }

    @Test func aHashInsideAWordOrQuotesIsNotAComment() {
        let commands = ShellCommandLine.commands(in: "vload --url 'wss://h/ws#x' --token a#b")
        #expect(commands.first?.words == ["vload", "--url", "wss://h/ws#x", "--token", "a#b"])
    }

    @Test func fencedBlocksKeepTheirLanguageLineAndSkipMarker() {
        let markdown = """
            Intro
            ```sh
            vload --clients 1
            ```
            <!-- docs-check: skip -->
            ```sh
            vload --clients 0
            ```
            ```
            plain
            ```
            """
        let blocks = MarkdownCodeBlock.blocks(in: markdown)
        #expect(blocks.map(\.language) == ["sh", "sh", ""])
        #expect(blocks.map(\.line) == [2, 6, 9])
        #expect(blocks.map(\.skipped) == [false, true, false])
        #expect(blocks[0].text == "vload --clients 1")
    }

    @Test func commandChecksCatchBadOptionsAndThresholds() {
        #expect(VLoadCommandCheck.problem(with: ["--clients", "5", "--scenario", "greeting"]) == nil)
        #expect(VLoadCommandCheck.problem(with: ["compare", "a.json", "b.json", "--tolerance", "10%"]) == nil)
        #expect(VLoadCommandCheck.problem(with: ["--help"]) == nil)
        #expect(VLoadCommandCheck.problem(with: ["--no-such-flag"]) != nil)
        #expect(VLoadCommandCheck.problem(with: ["--clients", "0"]) != nil)
        #expect(VLoadCommandCheck.problem(with: ["--threshold", "first_audio_from_end_ms < 900"]) != nil)
        #expect(VLoadCommandCheck.problem(with: ["capacity", "--slo", "error_rate.p95 < 1%"]) != nil)
        #expect(VLoadCommandCheck.problem(with: ["compare", "a.json", "b.json", "--tolerance", "ten"]) != nil)
    }
}
