import Foundation

/// One request parameter's value, before it is written in the service's format. Dates, booleans and
/// arrays are kept as such so that ``ParameterFormatting`` decides how they look on the wire.
public enum ParameterValue: Hashable, Sendable {
    /// Text, sent as is (percent-encoded where the encoding needs it).
    case string(String)
    /// An integer, written in decimal.
    case integer(Int)
    /// A number, written without a fraction when it is whole (`3`, `2.5`).
    case double(Double)
    /// A boolean, written as ``ParameterFormatting/booleans`` says (a native boolean in JSON bodies).
    case bool(Bool)
    /// A date, written with ``ParameterFormatting/dates``.
    case date(Date)
    /// Several values under one name, written as ``ParameterFormatting/arrays`` says (a JSON array in
    /// JSON bodies). An empty array sends nothing in a query, form or multipart body.
    case array([ParameterValue])
    /// Named values under one name: a JSON object in a `.json` body, written from a ``Parameters`` value
    /// (`"data": ["title": title, "done": false] as Parameters` writes `"data":{"done":false,"title":"…"}`),
    /// to any depth, inside arrays too. Only a `.json` body carries one: in a query, form or multipart body
    /// it is an ``WebServiceError/Service/invalidRequest(_:)``.
    case object(Parameters)
}

/// A Swift value that can be a request parameter. `String`, `Int`, `Double`, `Bool`, `Date`, `URL`,
/// ``Parameters`` (a nested object), arrays of these and enums whose raw value is one of these conform;
/// conform your own types by returning a value.
public protocol ParameterConvertible: Sendable {
    /// The parameter this value becomes.
    var parameterValue: ParameterValue { get }
}

extension ParameterValue: ParameterConvertible {
    /// The value itself.
    public var parameterValue: ParameterValue { self }
}

/// A string is sent as it is (``ParameterValue/string(_:)``).
extension String: ParameterConvertible {
    /// `.string(self)`.
    public var parameterValue: ParameterValue { .string(self) }
}

/// An integer is sent in decimal (``ParameterValue/integer(_:)``).
extension Int: ParameterConvertible {
    /// `.integer(self)`.
    public var parameterValue: ParameterValue { .integer(self) }
}

/// A number is sent without a fraction when it is whole (``ParameterValue/double(_:)``).
extension Double: ParameterConvertible {
    /// `.double(self)`.
    public var parameterValue: ParameterValue { .double(self) }
}

/// A boolean is sent as ``ParameterFormatting/booleans`` says (``ParameterValue/bool(_:)``).
extension Bool: ParameterConvertible {
    /// `.bool(self)`.
    public var parameterValue: ParameterValue { .bool(self) }
}

/// A date is sent as ``ParameterFormatting/dates`` says (``ParameterValue/date(_:)``).
extension Date: ParameterConvertible {
    /// `.date(self)`.
    public var parameterValue: ParameterValue { .date(self) }
}

/// A URL is sent as its absolute string.
extension URL: ParameterConvertible {
    /// The absolute string.
    public var parameterValue: ParameterValue { .string(absoluteString) }
}

/// An array is sent as ``ParameterFormatting/arrays`` says (``ParameterValue/array(_:)``).
extension Array: ParameterConvertible where Element: ParameterConvertible {
    /// `.array` of the elements' values.
    public var parameterValue: ParameterValue { .array(map(\.parameterValue)) }
}

/// Parameters nest: as a value they are an object (``ParameterValue/object(_:)``), which a `.json` body writes
/// as a JSON object.
extension Parameters: ParameterConvertible {
    /// `.object(self)`.
    public var parameterValue: ParameterValue { .object(self) }
}

extension ParameterConvertible where Self: RawRepresentable, RawValue: ParameterConvertible {
    /// The raw value's parameter, so `enum Sort: String, ParameterConvertible` needs no code.
    public var parameterValue: ParameterValue { rawValue.parameterValue }
}
