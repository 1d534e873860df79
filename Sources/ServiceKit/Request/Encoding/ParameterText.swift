/// Flattens parameters into name/value text pairs for the textual encodings (query, form, multipart),
/// applying the service's formatting of dates, booleans and arrays.
enum ParameterText {
    /// The pairs in parameter order; arrays expand per ``ParameterFormatting/arrays``.
    static func pairs(_ parameters: Parameters, formatting: ParameterFormatting) -> [(name: String, value: String)] {
        var pairs: [(name: String, value: String)] = []
        for entry in parameters.entries {
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
