import Foundation

/// An encoded request body and the `Content-Type` that describes it.
struct RequestBody: Sendable {
    let contentType: String
    let data: Data

    /// `name=value&...` for a query string (no leading `?`), RFC 3986 percent-encoded.
    static func queryString(_ parameters: Parameters, formatting: ParameterFormatting) -> String {
        ParameterText.pairs(parameters, formatting: formatting)
            .map { PercentEncoding.component($0.name) + "=" + PercentEncoding.component($0.value) }
            .joined(separator: "&")
    }

    /// An `application/x-www-form-urlencoded` body.
    static func form(_ parameters: Parameters, formatting: ParameterFormatting) -> RequestBody {
        let text = ParameterText.pairs(parameters, formatting: formatting)
            .map { PercentEncoding.formComponent($0.name) + "=" + PercentEncoding.formComponent($0.value) }
            .joined(separator: "&")
        return RequestBody(contentType: "application/x-www-form-urlencoded", data: Data(text.utf8))
    }

    /// A JSON object body with native numbers, booleans and arrays; dates as the formatting writes them.
    static func json(_ parameters: Parameters, formatting: ParameterFormatting) -> RequestBody {
        var members: [String: JSONValue] = [:]
        for entry in parameters.entries {
            members[entry.name] = jsonValue(entry.value, formatting: formatting)
        }
        return RequestBody(contentType: "application/json", data: JSONValue.object(members).encoded())
    }

    private static func jsonValue(_ value: ParameterValue, formatting: ParameterFormatting) -> JSONValue {
        switch value {
        case .string(let string): .string(string)
        case .integer(let integer): .integer(integer)
        case .double(let double): .double(double)
        case .bool(let bool): .bool(bool)
        case .date(let date): formatting.dates.value(for: date)
        case .array(let elements): .array(elements.map { jsonValue($0, formatting: formatting) })
        }
    }
}
