import Foundation

/// The strict readers of a ``JSON`` position, reached through ``JSON/required``. Each returns what the
/// lenient accessor of the same name would, or throws a service-level ``WebServiceError``:
/// `.missingField(path)` when nothing is there, `.invalidField(path)` when something is but cannot be
/// read as the type.
public struct RequiredJSON: Sendable {
    /// The position being read.
    public let json: JSON

    /// See ``JSON/string``.
    public var string: String { get throws(WebServiceError) { try require(json.string) } }
    /// See ``JSON/int``.
    public var int: Int { get throws(WebServiceError) { try require(json.int) } }
    /// See ``JSON/double``.
    public var double: Double { get throws(WebServiceError) { try require(json.double) } }
    /// See ``JSON/bool``.
    public var bool: Bool { get throws(WebServiceError) { try require(json.bool) } }
    /// See ``JSON/url``.
    public var url: URL { get throws(WebServiceError) { try require(json.url) } }
    /// See ``JSON/array``.
    public var array: [JSON] { get throws(WebServiceError) { try require(json.array) } }
    /// See ``JSON/object``.
    public var object: [String: JSON] { get throws(WebServiceError) { try require(json.object) } }

    /// See ``JSON/date(_:)``.
    public func date(_ format: DateFormat) throws(WebServiceError) -> Date {
        try require(json.date(format))
    }

    private func require<Value>(_ read: Value?) throws(WebServiceError) -> Value {
        if let read {
            return read
        }
        throw json.exists
            ? .service(.invalidField(json.path.description))
            : .service(.missingField(json.path.description))
    }
}
