import Foundation
import VoiceLoad

/// `vload validate --dialect-file F --replay capture.jsonl`: a recorded frame log through the
/// dialect, frame by frame, with no server: the fastest way to see what a matcher makes of
/// what a service really sends.
extension ValidateCommand {
    /// Prints, for every frame of the capture, the events and replies the dialect's codec makes
    /// of it, then how many frames no rule knew (`unknown`) or could not be read (`malformed`);
    /// a line that is not a frame is a one-line error naming it.
    static func replay(capture path: String, dialect: any ClientDialect) throws(InputError) {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw InputError("cannot read capture \(path): \(FileErrorText.reason(of: error))")
        }
        var script = try WireScript(dialect: dialect, parameters: [:])
        var frames = 0
        var unknown = 0
        var malformed = 0
        print("")
        print("replay of \(path):")
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let frame = line.trimmingCharacters(in: .whitespaces)
            guard !frame.isEmpty else { continue }
            let answer = script.answerText(line: #"{"receive": "# + frame + "}")
            guard !answer.hasPrefix(#"{"error""#) else {
                throw InputError("\(path):\(index + 1): not a frame ({\"text\": …} or {\"binary\": \"<base64>\"}): \(answer)")
            }
            frames += 1
            if answer.contains(#""event":"unknown""#) { unknown += 1 }
            if answer.contains(#""event":"malformed""#) { malformed += 1 }
            print("\(index + 1): \(answer)")
        }
        print("\(frames) frames: \(unknown) unknown to the dialect, \(malformed) malformed")
    }
}
