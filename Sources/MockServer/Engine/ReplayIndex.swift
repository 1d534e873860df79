/// The engine's index: a ``CassetteIndex`` of ``PreparedCassette``s.
typealias ReplayIndex = CassetteIndex<PreparedCassette>

extension PreparedCassette: IndexedCassette {}

extension CassetteIndex where Prepared == PreparedCassette {
    /// Adds a cassette; lower `rank` is consulted first when several cassettes match. Returns its position.
    @discardableResult
    mutating func add(_ cassette: Cassette, rank: Int, options: ReplayOptions) -> Int {
        add(PreparedCassette(LoadedCassette(cassette), ordinal: cassettes.count, rank: rank, options: options))
    }
}
