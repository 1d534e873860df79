/// Flattens parameters into name/value text pairs for the textual encodings (query, form, multipart),
/// applying the service's formatting of dates, booleans and arrays.
enum ParameterText {
    /// The pairs in parameter order; arrays expand per ``ParameterFormatting/arrays``. Throws
    /// `.invalidRequest` for a parameter holding an object, which has no text form (`encoding` names the
    /// encoding in the sentence).
    static func pairs(
        _ parameters: Parameters, formatting: ParameterFormatting, encoding: ParameterEncoding
    ) throws(WebServiceError) -> [(name: String, value: String)] {
        var pairs: [(name: String, value: String)] = []
        for entry in parameters.entries {
            guard !entry.value.holdsObject else {
                throw .service(
                    .invalidRequest(
                        "The parameter \"\(entry.name)\" holds an object, which only a .json body carries, but the service encodes its parameters as \(encoding.spelling)."
                    ))
            }
            guard case .array(let elements) = entry.value else {
                pairs.append((entry.name, text(entry.value, formatting: formatting)))
                continue
            }
            let texts = flatten(elements).map { text($0, formatting: formatting) }
            guard !texts.isEmpty else { continue }
            switch formatting.arrays {
            case .repeatedName:
                pairs += texts.map { (entry.name, $0) }
            case .bracketedName:
                pairs += texts.map { (entry.name + "[]", $0) }
            case .joined(let separator):
                pairs.append((entry.name, texts.joined(separator: separator)))
            }
        }
        return pairs
    }

    /// The text of one scalar value.
    static func text(_ value: ParameterValue, formatting: ParameterFormatting) -> String {
        switch value {
        case .string(let string): return string
        case .integer(let integer): return String(integer)
        case .double(let double): return JSON.text(for: double)
        case .bool(let bool):
            switch formatting.booleans {
            case .trueFalse: return bool ? "true" : "false"
            case .oneZero: return bool ? "1" : "0"
            }
        case .date(let date):
            return JSON(formatting.dates.value(for: date)).string ?? ""
        case .array(let elements):
            // Only reached for arrays nested in arrays, which flatten() removes; kept total for safety.
            return flatten(elements).map { text($0, formatting: formatting) }.joined(separator: ",")
        case .object:
            // Never reached: pairs(_:formatting:encoding:) refuses objects before writing any text.
            return ""
        }
    }

    private static func flatten(_ values: [ParameterValue]) -> [ParameterValue] {
        values.flatMap { value -> [ParameterValue] in
            if case .array(let inner) = value {
                return flatten(inner)
            }
            return [value]
        }
    }
}

extension ParameterValue {
    /// Whether this is an object, or an array holding one at any depth.
    var holdsObject: Bool {
        switch self {
        case .object: true
        case .array(let elements): elements.contains { $0.holdsObject }
        case .string, .integer, .double, .bool, .date: false
        }
    }
}
