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
}

/// A Swift value that can be a request parameter. `String`, `Int`, `Double`, `Bool`, `Date`, `URL`, arrays of
/// these and enums whose raw value is one of these conform; conform your own types by returning a value.
public protocol ParameterConvertible: Sendable {
    /// The parameter this value becomes.
    var parameterValue: ParameterValue { get }
}

extension ParameterValue: ParameterConvertible {
    /// The value itself.
    public var parameterValue: ParameterValue { self }
}

extension String: ParameterConvertible {
    /// `.string(self)`.
    public var parameterValue: ParameterValue { .string(self) }
}

extension Int: ParameterConvertible {
    /// `.integer(self)`.
    public var parameterValue: ParameterValue { .integer(self) }
}

extension Double: ParameterConvertible {
    /// `.double(self)`.
    public var parameterValue: ParameterValue { .double(self) }
}

extension Bool: ParameterConvertible {
    /// `.bool(self)`.
    public var parameterValue: ParameterValue { .bool(self) }
}

extension Date: ParameterConvertible {
    /// `.date(self)`.
    public var parameterValue: ParameterValue { .date(self) }
}

extension URL: ParameterConvertible {
    /// The absolute string.
    public var parameterValue: ParameterValue { .string(absoluteString) }
}

extension Array: ParameterConvertible where Element: ParameterConvertible {
    /// `.array` of the elements' values.
    public var parameterValue: ParameterValue { .array(map(\.parameterValue)) }
}

extension ParameterConvertible where Self: RawRepresentable, RawValue: ParameterConvertible {
    /// The raw value's parameter, so `enum Sort: String, ParameterConvertible` needs no code.
    public var parameterValue: ParameterValue { rawValue.parameterValue }
}
