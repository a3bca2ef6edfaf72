/// An HDR histogram as sparse (value, count) pairs: replaying them rebuilds it exactly, so
/// reports from several processes merge without loss.
package struct SerializedHistogram: Codable, Sendable {
    enum CodingKeys: String, CodingKey {
        case unit
        case lowestDiscernibleValue = "lowest_discernible_value"
        case highestTrackableValue = "highest_trackable_value"
        case significantDigits = "significant_digits"
        case values
        case minValue = "min_value"
        case maxValue = "max_value"
    }

    package var unit = "us"
    package var lowestDiscernibleValue: UInt64 = 1
    package var highestTrackableValue = LatencyHistogram.highestTrackableUs
    package var significantDigits = 3
    package var values: [[UInt64]]
    /// The exact smallest and largest values (absent in reports of older versions).
    package var minValue: UInt64?
    package var maxValue: UInt64?

    package init(_ histogram: LatencyHistogram) {
        values = histogram.sparseValues
        minValue = histogram.exactRange?.min
        maxValue = histogram.exactRange?.max
    }

    /// The histogram again: equal to the one serialized when the exact range is present.
    package var histogram: LatencyHistogram {
        guard let minValue, let maxValue else { return LatencyHistogram(sparseValues: values) }
        return LatencyHistogram(sparseValues: values, exactRange: (minValue, maxValue))
    }
}
