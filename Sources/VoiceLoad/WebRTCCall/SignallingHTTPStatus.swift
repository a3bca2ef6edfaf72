/// A signalling error that may be an HTTP status answering the offer: a refusal the caller
/// counts as `signalling_rejected_<status>` (401 and 403 are not retried), as a WebSocket's
/// refused upgrade is `upgrade_rejected_<status>`.
package protocol SignallingHTTPStatus: Error {
    /// The status the offer's POST was answered with, when that is the error; nil otherwise.
    var httpStatus: Int? { get }
}
