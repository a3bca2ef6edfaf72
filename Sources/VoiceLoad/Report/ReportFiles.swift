import Foundation

/// The reports a person reads, rendered from report.json and written next to it.
package enum ReportFiles {
    package static let names = ["report.html", "junit.xml", "summary.md"]

    /// Writes report.html, junit.xml and summary.md into `directory`.
    package static func write(_ report: RunReport, to directory: URL) throws {
        let files = [
            ("report.html", HTMLReport.render(report, recordings: RecordingView.load(report.recordings, directory: directory))),
            ("junit.xml", JUnitReport.render(report)),
            ("summary.md", MarkdownSummary.render(report)),
        ]
        for (name, text) in files {
            try Data(text.utf8).write(to: directory.appendingPathComponent(name))
        }
    }
}
