import Foundation

/// A cassette file as read once: the decoded cassette, and its interactions in the form a ``ReplayEngine``
/// keeps (replies built, bodies serialized). Immutable, so every server replaying the file shares it.
package final class LoadedCassette: Sendable {
    /// The cassette as ``Cassette/load(from:)`` gives it.
    package let cassette: Cassette
    let interactions: PreparedCassette.Interactions

    /// Reads and prepares the cassette at `url`.
    /// - Throws: ``MockServerError`` as ``Cassette/load(from:)`` does.
    init(contentsOf url: URL) throws(MockServerError) {
        var builder = PreparedCassette.Builder()
        if FileManager.default.fileExists(atPath: CaptureLog.url(for: url).path) {
            // An interrupted recording's log applies (rare): decoded whole, with the log's interactions.
            let withLog = try Cassette.load(from: url)
            withLog.interactions.forEach { builder.add($0) }
            cassette = withLog
            interactions = builder.interactions.shrunk
            return
        }
        var decoded: [Interaction] = []
        var cassette = try Cassette.decode(Cassette.contents(of: url), source: url.relativePath) { interaction in
            builder.add(interaction)
            decoded.append(interaction)
        }
        cassette.interactions = decoded
        self.cassette = cassette
        interactions = builder.interactions.shrunk
    }
}
