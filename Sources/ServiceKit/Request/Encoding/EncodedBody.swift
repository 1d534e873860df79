import Foundation

/// An encoded request body and the `Content-Type` that describes it.
struct EncodedBody: Sendable {
    let contentType: String
    let data: Data

    /// `name=value&...` for a query string (no leading `?`), RFC 3986 percent-encoded. Throws
    /// `.invalidRequest` for a parameter holding an object.
    static func queryString(_ parameters: Parameters, formatting: ParameterFormatting) throws(WebServiceError) -> String {
        try ParameterText.pairs(parameters, formatting: formatting, encoding: .query)
            .map { PercentEncoding.component($0.name) + "=" + PercentEncoding.component($0.value) }
            .joined(separator: "&")
    }

    /// An `application/x-www-form-urlencoded` body. Throws `.invalidRequest` for a parameter holding an object.
    static func form(_ parameters: Parameters, formatting: ParameterFormatting) throws(WebServiceError) -> EncodedBody {
        let text = try ParameterText.pairs(parameters, formatting: formatting, encoding: .form)
            .map { PercentEncoding.formComponent($0.name) + "=" + PercentEncoding.formComponent($0.value) }
            .joined(separator: "&")
        return EncodedBody(contentType: "application/x-www-form-urlencoded", data: Data(text.utf8))
    }

    /// A JSON object body with native numbers, booleans, arrays and objects; dates as the formatting writes
    /// them; keys sorted at every depth.
    static func json(_ parameters: Parameters, formatting: ParameterFormatting) -> EncodedBody {
        EncodedBody(contentType: "application/json", data: jsonObject(parameters, formatting: formatting).encoded())
    }

    private static func jsonObject(_ parameters: Parameters, formatting: ParameterFormatting) -> JSONValue {
        var members: [String: JSONValue] = [:]
        for entry in parameters.entries {
            members[entry.name] = jsonValue(entry.value, formatting: formatting)
        }
        return .object(members)
    }

    private static func jsonValue(_ value: ParameterValue, formatting: ParameterFormatting) -> JSONValue {
        switch value {
        case .string(let string): .string(string)
        case .integer(let integer): .integer(integer)
        case .double(let double): .double(double)
        case .bool(let bool): .bool(bool)
        case .date(let date): formatting.dates.value(for: date)
        case .array(let elements): .array(elements.map { jsonValue($0, formatting: formatting) })
        case .object(let members): jsonObject(members, formatting: formatting)
        }
    }
}
