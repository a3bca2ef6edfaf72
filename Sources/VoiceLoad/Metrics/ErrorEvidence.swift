import WSCore

/// What is known about one error before it is written anywhere: the raw facts a report
/// example's one-line detail is made of. Only a `Redactor` turns it into text
/// (`Redactor.detail(_:)`), so nothing reaches a report without its secrets masked.
package enum ErrorEvidence: Sendable, Hashable {
    /// An HTTP answer that refused the upgrade or the REST step: its status and body.
    case httpStatus(Int, body: String)
    /// The server's close: its code (nil when it gave none) and reason.
    case close(code: Int?, reason: String?)
    /// An in-band error event: the server's code (nil when it gave none) and message.
    case inBand(code: String?, message: String)
    /// A frame that could not be used, and why.
    case frame(WireFrame, reason: String)
    /// vload's own words: what was awaited, what failed.
    case text(String)
}
