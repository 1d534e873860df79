import Foundation

/// Copies of the strings, header lists and bodies an engine keeps from a decoded cassette, made while it is
/// indexed. Equal values share one copy (thousands of interactions repeat the same header names, values and
/// request header lists), and no copy shares storage with the decoded cassette: once the caller drops the
/// cassette, none of its memory stays pinned by a few strings the engine still uses, so all of it can go
/// back to the system.
struct FreshCopies {
    private var strings: [String: String] = [:]
    private var headerLists: [HTTPHeaders: HTTPHeaders] = [:]

    /// The shared copy of `text`. Strings of up to 15 UTF-8 bytes are stored inline and need no copy.
    mutating func string(_ text: String) -> String {
        guard text.utf8.count > 15 else { return text }
        if let existing = strings[text] { return existing }
        var source = text
        let copy = source.withUTF8 { String(decoding: $0, as: UTF8.self) }
        strings[copy] = copy
        return copy
    }

    /// The shared copy of `headers`, line by line.
    mutating func headers(_ headers: HTTPHeaders) -> HTTPHeaders {
        guard !headers.isEmpty else { return headers }
        if let existing = headerLists[headers] { return existing }
        let copy = HTTPHeaders(headers.lines.map { HTTPHeader(name: string($0.name), value: string($0.value)) })
        headerLists[copy] = copy
        return copy
    }

    /// A copy of `data` in new storage.
    func data(_ data: Data) -> Data {
        data.withUnsafeBytes { Data($0) }
    }

    /// A copy of `value` sharing no storage with it.
    mutating func json(_ value: CassetteJSON) -> CassetteJSON {
        switch value {
        case .null, .bool: return value
        case .number(let number): return .number(JSONNumber(trustedLiteral: string(number.literal)))
        case .string(let text): return .string(string(text))
        case .array(let elements): return .array(elements.map { json($0) })
        case .object(let members):
            var copy: [String: CassetteJSON] = [:]
            copy.reserveCapacity(members.count)
            for (key, member) in members { copy[string(key)] = json(member) }
            return .object(copy)
        }
    }

    /// A copy of `body` sharing no storage with it.
    mutating func body(_ body: RecordedBody) -> RecordedBody {
        switch body {
        case .empty: .empty
        case .json(let value): .json(json(value))
        case .text(let text): .text(string(text))
        case .binary(let bytes): .binary(data(bytes))
        }
    }

    /// A copy of `request` sharing no storage with it.
    mutating func request(_ request: RecordedRequest) -> RecordedRequest {
        RecordedRequest(method: string(request.method), target: string(request.target), headers: headers(request.headers),
                        body: body(request.body))
    }
}
