/// Reads one JSON object of a cassette, turning every surprise into a ``MockServerError`` that names the file,
/// the interaction and the field's path.
struct CassetteFieldReader {
    let members: CassetteJSON.Members
    let file: String
    let interaction: Int?
    /// The object's own path (`response`, `matching`), empty at the top of the cassette or an interaction.
    let path: String

    init(_ value: CassetteJSON, file: String, interaction: Int?, path: String) throws(MockServerError) {
        guard case .object(let members) = value else {
            throw MockServerError(
                code: .invalidField, file: file, interaction: interaction, field: path,
                reason: "expected an object, found \(Self.describe(value))")
        }
        self.members = members
        self.file = file
        self.interaction = interaction
        self.path = path
    }

    func fieldPath(_ key: String) -> String { path.isEmpty ? key : path + "." + key }

    func failure(_ key: String?, _ reason: String) -> MockServerError {
        MockServerError(code: .invalidField, file: file, interaction: interaction, field: key.map(fieldPath) ?? path, reason: reason)
    }

    func mismatch(_ key: String, expected: String, found value: CassetteJSON) -> MockServerError {
        failure(key, "expected \(expected), found \(Self.describe(value))")
    }

    /// How a wrong value is named in a message: numbers and booleans by value, strings only by kind (they
    /// may be long or secret).
    static func describe(_ value: CassetteJSON) -> String {
        switch value {
        case .number(let number): number.literal
        case .bool(let flag): flag ? "true" : "false"
        default: value.kindDescription
        }
    }

    /// Rejects members outside `known`, so a misspelt field never silently does nothing.
    func rejectUnknown(_ known: [String]) throws(MockServerError) {
        for key in members.keys.sorted() where !known.contains(key) {
            throw failure(key, "unknown field; expected one of \(known.sorted().joined(separator: ", "))")
        }
    }

    func required(_ key: String) throws(MockServerError) -> CassetteJSON {
        guard let value = members[key] else { throw failure(key, "required field is missing") }
        return value
    }

    /// The member, treating `null` as absent.
    func optional(_ key: String) -> CassetteJSON? {
        guard let value = members[key], value != .null else { return nil }
        return value
    }

    func string(_ key: String) throws(MockServerError) -> String {
        try string(key, from: required(key))
    }

    func optionalString(_ key: String) throws(MockServerError) -> String? {
        guard let value = optional(key) else { return nil }
        return try string(key, from: value)
    }

    private func string(_ key: String, from value: CassetteJSON) throws(MockServerError) -> String {
        guard case .string(let string) = value else { throw mismatch(key, expected: "a string", found: value) }
        return string
    }

    func integer(_ key: String) throws(MockServerError) -> Int {
        try integer(key, from: required(key))
    }

    func optionalBool(_ key: String) throws(MockServerError) -> Bool? {
        guard let value = optional(key) else { return nil }
        guard case .bool(let flag) = value else { throw mismatch(key, expected: "true or false", found: value) }
        return flag
    }

    func optionalInteger(_ key: String) throws(MockServerError) -> Int? {
        guard let value = optional(key) else { return nil }
        return try integer(key, from: value)
    }

    private func integer(_ key: String, from value: CassetteJSON) throws(MockServerError) -> Int {
        guard case .number(let number) = value, let integer = number.intValue else {
            throw mismatch(key, expected: "an integer", found: value)
        }
        return integer
    }

    func array(_ key: String) throws(MockServerError) -> [CassetteJSON] {
        let value = try required(key)
        guard case .array(let elements) = value else { throw mismatch(key, expected: "an array", found: value) }
        return elements
    }

    func optionalArray(_ key: String) throws(MockServerError) -> [CassetteJSON]? {
        guard optional(key) != nil else { return nil }
        return try array(key)
    }

    func object(_ key: String) throws(MockServerError) -> CassetteFieldReader {
        try CassetteFieldReader(required(key), file: file, interaction: interaction, path: fieldPath(key))
    }

    func optionalObject(_ key: String) throws(MockServerError) -> CassetteFieldReader? {
        guard let value = optional(key) else { return nil }
        return try CassetteFieldReader(value, file: file, interaction: interaction, path: fieldPath(key))
    }
}
