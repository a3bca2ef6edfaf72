/// One of the first occurrences of an error class in a run (`errors.examples` in report.json).
package struct ErrorExample: Codable, Sendable, Hashable {
    enum CodingKeys: String, CodingKey {
        case tS = "t_s"
        case client, iteration, detail
    }

    /// Seconds since the run's start.
    package var tS: Double
    package var client: Int
    package var iteration: Int
    /// One redacted line of at most `ErrorDetail.maxCharacters` characters.
    package var detail: String

    package init(tS: Double, client: Int, iteration: Int, detail: String) {
        self.tS = tS
        self.client = client
        self.iteration = iteration
        self.detail = detail
    }

    /// How many examples of each class a report keeps.
    package static let perClass = 3

    /// The order examples are kept in: earliest first (then by client and iteration, so
    /// equal times order the same way everywhere).
    package static func precedes(_ lhs: ErrorExample, _ rhs: ErrorExample) -> Bool {
        (lhs.tS, lhs.client, lhs.iteration) < (rhs.tS, rhs.client, rhs.iteration)
    }
}
