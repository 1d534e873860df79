import Foundation

extension JSON {
    /// Decodes a `Decodable` type from the value at this position without parsing anything again. Reading
    /// is as lenient as the accessors (`Int` from `"42"`, `Bool` from `1`); `Date` is read with
    /// `dateFormat`, `URL` from a string. Throws `.missingField(path)` or `.invalidField(path)` with the full
    /// key path, never a `DecodingError`.
    public func decode<Value: Decodable>(
        _ type: Value.Type, dateFormat: DateFormat = .iso8601
    )
        throws(WebServiceError) -> Value
    {
        do {
            return try JSONValueDecoder(json: self, dateFormat: dateFormat).unbox(type, at: self)
        } catch let error as WebServiceError {
            throw error
        } catch {
            // A type's own init(from:) threw something else (for example a DecodingError it built).
            throw .service(.invalidField(path.description), underlyingError: error)
        }
    }
}
