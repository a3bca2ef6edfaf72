/// A bad input from the user (scenario, audio, dialect, URL, flag): one line that names the
/// problem; the command line turns it into exit code 2.
package struct InputError: Error, CustomStringConvertible, Sendable, Hashable {
    package var message: String

    /// `message` made one line (`oneLine`): it often quotes what the user wrote.
    package init(_ message: String) {
        self.message = Self.oneLine(message)
    }

    package var description: String { message }

    /// `text` on one line: line breaks and other control characters (but tabs) written as
    /// escapes (`\n`, `\r`, `\u{1B}`), so a message quoting user input stays one line.
    package static func oneLine(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var line = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": line += "\\n"
            case "\r": line += "\\r"
            case _ where needsEscape(scalar): line += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            default: line.unicodeScalars.append(scalar)
            }
        }
        return line
    }

    /// Control characters other than tab, and the Unicode line and paragraph separators.
    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        scalar != "\t" && (scalar.properties.generalCategory == .control || scalar == "\u{2028}" || scalar == "\u{2029}")
    }
}
