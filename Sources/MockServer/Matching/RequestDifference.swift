/// One way a received request differs from a recorded one, as unmatched-request reports list them:
/// `query since: recorded "0", received "1"`, `$.user.id: recorded 42, received 43`,
/// `header Accept: recorded "application/json", received nothing`.
package struct RequestDifference: Sendable, Hashable, CustomStringConvertible {
    /// Where: `method`, `path`, `query NAME`, `header NAME`, a JSON path such as `$.user.id`,
    /// `form field NAME`, `part NAME` (with ` filename` or ` content type`), or `body`.
    let location: String
    /// The recorded value as displayed (strings quoted, JSON compact, long values shortened), or `nil`
    /// when the recorded request has nothing there.
    let recorded: String?
    /// The received value as displayed, or `nil` when the received request has nothing there.
    let received: String?
    /// How much the difference counts when choosing the closest interaction: a wrong path weighs most,
    /// then a wrong method or body type, then each field.
    let weight: Int
    private let customDescription: String?

    init(_ location: String, recorded: String?, received: String?, weight: Int = 1, description: String? = nil) {
        self.location = location
        self.recorded = recorded
        self.received = received
        self.weight = weight
        customDescription = description
    }

    /// `LOCATION: recorded X, received Y`, with `nothing` for an absent value.
    package var description: String {
        customDescription ?? "\(location): recorded \(recorded ?? "nothing"), received \(received ?? "nothing")"
    }
}

extension RequestDifference {
    /// Whether this is a JSON body value (`$.…`) recorded and received as two different UUIDs, which a client
    /// usually draws afresh on every run.
    var isFreshIdentifierInBody: Bool {
        guard location.hasPrefix("$"), let recorded, let received, recorded != received else { return false }
        return Self.isQuotedUUID(recorded) && Self.isQuotedUUID(received)
    }

    /// `"xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx"` in hex digits of either case, with its quotes.
    private static func isQuotedUUID(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 38, bytes.first == UInt8(ascii: "\""), bytes.last == UInt8(ascii: "\"") else { return false }
        for (index, byte) in bytes.dropFirst().dropLast().enumerated() {
            if [8, 13, 18, 23].contains(index) {
                guard byte == UInt8(ascii: "-") else { return false }
            } else if !(byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) && !(byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "f")) {
                return false
            }
        }
        return true
    }
}
