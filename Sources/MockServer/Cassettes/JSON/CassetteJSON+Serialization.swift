import Foundation
import ServiceReplayShared

extension CassetteJSON {
    /// Parses one JSON document (RFC 8259; a leading UTF-8 byte order mark is skipped).
    ///
    /// Throws ``JSONParseError`` naming the line and column for malformed input, invalid UTF-8, duplicate
    /// object keys, unpaired surrogates or nesting deeper than 512 levels.
    init(parsing data: Data) throws(JSONParseError) {
        let result: Result<CassetteJSON, JSONParseError> = data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            do throws(JSONParseError) {
                return .success(try JSONParser.parse(bytes))
            } catch {
                return .failure(error)
            }
        }
        self = try result.get()
    }

    /// Parses one JSON document from text; see ``init(parsing:)-(Data)``.
    init(parsing text: String) throws(JSONParseError) {
        try self.init(parsing: Data(text.utf8))
    }

    /// The value as JSON bytes: members in their order, slashes not escaped, numbers as recorded.
    /// Compact by default; `pretty` gives `JSONEncoder`'s `.prettyPrinted` layout (two-space indent).
    public func serialized(pretty: Bool = false) -> Data {
        Data(JSONWriter.write(self, pretty: pretty))
    }

    /// The compact serialization as a string (see ``serialized(pretty:)``).
    public var compactText: String {
        String(decoding: JSONWriter.write(self, pretty: false), as: UTF8.self)
    }
}
