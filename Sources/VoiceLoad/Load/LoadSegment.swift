/// This process's share of a load split over `count` processes (`--segment 2/4`): the
/// segments together run exactly the whole load.
package struct LoadSegment: Sendable, Hashable, CustomStringConvertible {
    /// 0-based; written 1-based (`index + 1 / count`).
    package var index: Int
    package var count: Int

    package static let whole = LoadSegment(index: 0, count: 1)

    package init(index: Int, count: Int) {
        self.index = index
        self.count = count
    }

    /// `i/n` with 1 ≤ i ≤ n ≤ 10000.
    package static func parse(_ text: String) throws(InputError) -> LoadSegment {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let number = Int(parts[0]), let count = Int(parts[1]),
            (1...10_000).contains(count), (1...count).contains(number)
        else {
            throw InputError("invalid --segment '\(text)': use i/n with 1 ≤ i ≤ n, like 2/4")
        }
        return LoadSegment(index: number - 1, count: count)
    }

    package var isWhole: Bool { count == 1 }

    /// Whether item `globalIndex` of the whole load (a client, a stage slot) is this segment's.
    package func owns(_ globalIndex: Int) -> Bool {
        globalIndex % count == index
    }

    /// The items of `0..<total` this segment owns.
    package func share(of total: Int) -> [Int] {
        Array(stride(from: index, to: total, by: count))
    }

    /// This segment's part of a budget of `total` (e.g. sessions in flight): the parts add up to it.
    package func part(of total: Int) -> Int {
        total / count + (index < total % count ? 1 : 0)
    }

    package var description: String { "\(index + 1)/\(count)" }
}
