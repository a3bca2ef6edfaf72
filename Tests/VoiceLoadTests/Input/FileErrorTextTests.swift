import Foundation
import Testing

@testable import VoiceLoad

@Suite("File and JSON errors as one line")
struct FileErrorTextTests {
    private struct Report: Decodable {
        struct Sessions: Decodable { var started: Int }
        var tool: String
        var sessions: Sessions
    }

    @Test("a missing file, an unwritable directory: the system's short reason")
    func fileErrors() {
        do {
            _ = try Data(contentsOf: URL(fileURLWithPath: "/nonexistent/vload/report.json"))
            Issue.record("read a file that does not exist")
        } catch {
            #expect(FileErrorText.reason(of: error) == "No such file or directory")
        }
        do {
            try FileManager.default.createDirectory(atPath: "/proc/vload-cannot", withIntermediateDirectories: true)
            Issue.record("created a directory in /proc")
        } catch {
            let reason = FileErrorText.reason(of: error)
            #expect(!reason.contains("\n") && !reason.contains("NSCocoaErrorDomain") && !reason.isEmpty, "\(reason)")
        }
    }

    @Test("decoding errors name the field")
    func decodingErrors() {
        func reason(_ json: String) -> String {
            do {
                _ = try JSONDecoder().decode(Report.self, from: Data(json.utf8))
                return "decoded"
            } catch {
                return FileErrorText.decoding(error)
            }
        }
        #expect(reason("nope") == "not valid JSON")
        #expect(reason("{}") == "missing field 'tool'")
        #expect(reason(#"{"tool": "vload", "sessions": {}}"#) == "missing field 'sessions.started'")
        #expect(reason(#"{"tool": "vload", "sessions": {"started": "x"}}"#) == "field 'sessions.started': expected a number")
        #expect(reason("[1]") == "not a JSON object")
    }
}
