import Foundation

/// The timestamps of report.json and capacity.json: ISO 8601, UTC, with milliseconds.
package enum ReportTimestamp {
    package static func string(_ date: Date) -> String {
        formatter().string(from: date)
    }

    /// The date a report's timestamp names; nil for text in another format.
    package static func date(_ text: String) -> Date? {
        formatter().date(from: text)
    }

    private static func formatter() -> ISO8601DateFormatter {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter
    }
}
