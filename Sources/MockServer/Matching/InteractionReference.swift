/// Names one interaction of the cassettes a server replays, for decisions, journals and reports.
public struct InteractionReference: Sendable, Hashable, CustomStringConvertible {
    /// The cassette's name.
    public let cassette: String
    /// The cassette's position among those the server replays: in the order they were given, the cassette of
    /// interactions added in code (``CassetteServer/add(_:)``) last. After ``CassetteServer/replaceCassettes(with:)``
    /// the positions count on from the number of cassettes served before, so that one number names one cassette
    /// for the server's whole run.
    public let cassetteIndex: Int
    /// The interaction's index in the cassette's `interactions`.
    public let index: Int
    /// The recorded request's method.
    public let method: String
    /// The recorded request's target (path and query).
    public let target: String

    /// Creates a reference.
    public init(cassette: String, cassetteIndex: Int, index: Int, method: String, target: String) {
        self.cassette = cassette
        self.cassetteIndex = cassetteIndex
        self.index = index
        self.method = method
        self.target = target
    }

    /// `CASSETTE interaction N (METHOD TARGET)`.
    public var description: String { "\(cassette) interaction \(index) (\(method) \(target))" }
}

extension InteractionReference {
    /// `{"cassette", "interaction" (the index), "method", "target"}`: how 404 bodies and the control API name it.
    package var json: CassetteJSON {
        [
            "cassette": .string(cassette), "interaction": .number(JSONNumber(index)),
            "method": .string(method), "target": .string(target),
        ]
    }
}
