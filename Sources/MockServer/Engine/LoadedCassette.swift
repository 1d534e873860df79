import Foundation

/// A cassette as every server takes it: its fields, and its interactions in the form a ``ReplayEngine`` keeps
/// (replies built, bodies serialized). The one way a cassette reaches an engine: a file is read with
/// ``Cassette/read(from:eachInteraction:)`` (capture log applied, fields checked), a cassette made in code is
/// prepared as it is. Immutable, so every server replaying the file shares it (see ``CassetteFileCache``).
package final class LoadedCassette: Sendable {
    /// The cassette's own fields (name, origin, rules, error templates...), without its interactions.
    package let metadata: Cassette
    let interactions: PreparedCassette.Interactions
    /// The file it was read from; `nil` for a cassette made in code.
    let file: URL?

    /// Reads and prepares the cassette at `url`, keeping each interaction only in the form the engine keeps,
    /// so that loading a large cassette takes little more memory than serving it.
    /// - Throws: ``MockServerError`` as ``Cassette/load(from:)`` does.
    init(contentsOf url: URL) throws(MockServerError) {
        var builder = PreparedCassette.Builder()
        metadata = try Cassette.read(from: url) { builder.add($0) }.fields
        interactions = builder.interactions.shrunk
        file = url
    }

    /// Prepares `cassette`, made in code.
    init(_ cassette: Cassette) {
        var builder = PreparedCassette.Builder()
        cassette.interactions.forEach { builder.add($0) }
        var metadata = cassette
        metadata.interactions = []
        self.metadata = metadata
        interactions = builder.interactions.shrunk
        file = nil
    }

    /// The cassette as ``Cassette/load(from:)`` gives it, rebuilt from the prepared interactions (parsing every
    /// JSON body back): for callers that want the values, not for replay.
    package var cassette: Cassette {
        var rebuilt = metadata
        rebuilt.interactions = interactions.all
        return rebuilt
    }
}
