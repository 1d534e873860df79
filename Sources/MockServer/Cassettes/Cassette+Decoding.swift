import Foundation
import ServiceReplayShared

extension Cassette {
    /// Decodes a cassette from the bytes of its file.
    ///
    /// `source` names the file in error messages (`Recordings/github/users.json`); `name` defaults to its last
    /// path component without `.json` when the cassette has none. Throws ``MockServerError``: `syntax` with the
    /// line and column for malformed JSON, `notACassette` when `format` is missing or different,
    /// `unsupportedVersion` for versions newer than ``currentVersion``, and `invalidField` naming the
    /// interaction index and the field for anything missing, unknown or ill-typed.
    public init(jsonData data: Data, source: String) throws(MockServerError) {
        let document: CassetteJSON
        do throws(JSONParseError) {
            document = try CassetteJSON(parsing: data)
        } catch {
            throw MockServerError(syntax: error, file: source)
        }
        try self.init(json: document, source: source)
    }

    /// Decodes a cassette from an already parsed JSON document; see ``init(jsonData:source:)``.
    public init(json document: CassetteJSON, source: String) throws(MockServerError) {
        try self.init(fieldsOf: document, source: source)
        let elements = try CassetteFieldReader(document, file: source, interaction: nil, path: "").array("interactions")
        var interactions: [Interaction] = []
        interactions.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            interactions.append(try Interaction(element, file: source, index: index))
        }
        self.interactions = interactions
    }

    /// Decodes a cassette like ``init(jsonData:source:)``, with the same errors in the same order, but hands
    /// each interaction to `body` as soon as it is decoded instead of keeping it, so that the decoded
    /// interactions never all exist at once; the cassette returned has no interactions. When it throws,
    /// `body` may already have been given some interactions.
    static func decode(_ data: Data, source: String, eachInteraction body: (Interaction) -> Void) throws(MockServerError) -> Cassette {
        var count = 0
        var firstFailure: MockServerError?
        let parsed: Result<CassetteJSON, JSONParseError> = data.withUnsafeBytes { raw in
            do throws(JSONParseError) {
                return .success(
                    try JSONParser.parse(raw.bindMemory(to: UInt8.self), streaming: "interactions") { element in
                        defer { count += 1 }
                        // As in init(json:), the first bad interaction is reported, after the fields of the cassette itself.
                        guard firstFailure == nil else { return }
                        do throws(MockServerError) {
                            body(try Interaction(element, file: source, index: count))
                        } catch {
                            firstFailure = error
                        }
                    })
            } catch {
                return .failure(error)
            }
        }
        let document: CassetteJSON
        switch parsed {
        case .success(let value): document = value
        case .failure(let error): throw MockServerError(syntax: error, file: source)
        }
        let cassette = try Cassette(json: document, source: source)
        if let firstFailure { throw firstFailure }
        // A top level that is not an object was parsed whole and fails above; here every interaction was streamed.
        return cassette
    }

    /// Decodes and checks every field of a cassette but the elements of `interactions` (which must be an array).
    private init(fieldsOf document: CassetteJSON, source: String) throws(MockServerError) {
        guard case .object = document else {
            throw MockServerError(
                code: .notACassette, file: source,
                reason: "not a ServiceReplay cassette: expected a JSON object at the top level, found \(CassetteFieldReader.describe(document))")
        }
        let top = try CassetteFieldReader(document, file: source, interaction: nil, path: "")
        guard case .string(let format)? = top.members["format"] else {
            throw MockServerError(
                code: .notACassette, file: source,
                reason: "not a ServiceReplay cassette: the \"format\" field must be \"\(Cassette.format)\"")
        }
        guard format == Cassette.format else {
            throw MockServerError(
                code: .notACassette, file: source,
                reason: "not a ServiceReplay cassette: format is \(JSONWriter.quoted(format)), expected \"\(Cassette.format)\"")
        }
        let version = try top.integer("version")
        guard version <= Cassette.currentVersion else {
            throw MockServerError(
                code: .unsupportedVersion, file: source,
                reason: "cassette version \(version) is newer than this MockServer reads (version \(Cassette.currentVersion)); update ServiceReplay")
        }
        guard version >= 1 else { throw top.failure("version", "expected a version of 1 or more, found \(version)") }
        formatVersion = version
        try top.rejectUnknown([
            "format", "version", "name", "upstream", "origin", "note", "recordedAt", "matching",
            "errorTemplates", "interactions",
        ])

        name = try top.optionalString("name") ?? Cassette.defaultName(forSource: source)
        upstream = try top.optionalString("upstream")
        if let originText = try top.optionalString("origin") {
            guard let parsed = Origin(rawValue: originText) else {
                throw top.failure("origin", "expected one of recorded, hand-written, found \(JSONWriter.quoted(originText))")
            }
            origin = parsed
        } else {
            origin = .recorded
        }
        note = try top.optionalString("note")
        recordedAt = try top.optionalDate("recordedAt")
        matching = try top.optionalObject("matching").map { reader throws(MockServerError) in try MatchRules(reader) } ?? MatchRules()
        var templates: [String: RecordedResponse] = [:]
        if let reader = try top.optionalObject("errorTemplates") {
            for key in reader.members.keys.sorted() {
                templates[key] = try RecordedResponse(reader.object(key))
            }
        }
        errorTemplates = templates
        _ = try top.array("interactions")
        interactions = []
    }

    /// The file name without its folder and `.json`, used when a cassette has no `name`.
    static func defaultName(forSource source: String) -> String {
        let last = source.split(separator: "/").last.map(String.init) ?? source
        return last.hasSuffix(".json") ? String(last.dropLast(5)) : last
    }
}

extension CassetteFieldReader {
    func optionalDate(_ key: String) throws(MockServerError) -> Date? {
        guard let text = try optionalString(key) else { return nil }
        guard let date = CassetteDate.parse(text) else {
            throw failure(key, "expected an ISO 8601 date in UTC such as 2026-11-21T10:00:00Z, found \(JSONWriter.quoted(text))")
        }
        return date
    }

    func headers(_ key: String) throws(MockServerError) -> HTTPHeaders {
        guard let elements = try optionalArray(key) else { return [:] }
        var lines: [HTTPHeader] = []
        lines.reserveCapacity(elements.count)
        for (position, element) in elements.enumerated() {
            guard case .array(let pair) = element, pair.count == 2,
                case .string(let name) = pair[0], case .string(let value) = pair[1]
            else {
                throw failure("\(key)[\(position)]", "expected a [name, value] pair of strings")
            }
            guard !name.isEmpty else { throw failure("\(key)[\(position)]", "the header name is empty") }
            lines.append(HTTPHeader(name: name, value: value))
        }
        return HTTPHeaders(lines)
    }

    func body(_ key: String) throws(MockServerError) -> RecordedBody {
        guard let reader = try optionalObject(key) else { return .empty }
        let kinds = ["json", "text", "base64"].filter { reader.members[$0] != nil }
        if kinds == ["json"], let value = reader.members["json"] {
            try reader.rejectUnknown(["json", "layout", "finalNewline"])
            var layout = JSONLayout.compact
            if let name = try reader.optionalString("layout") {
                guard let lines = JSONLayout.lines(named: name) else {
                    throw reader.failure("layout", "expected one of compact, spaced, indent-N (N from 1 to 16), indent-tab, found \(JSONWriter.quoted(name))")
                }
                layout.lines = lines
            }
            layout.finalNewline = try reader.optionalBool("finalNewline") ?? false
            return .json(value, layout: layout)
        }
        if reader.members["stream"] != nil, kinds.isEmpty {
            try reader.rejectUnknown(["stream", "ending"])
            var stream = try reader.stream("stream")
            if let name = try reader.optionalString("ending") {
                guard let ending = RecordedStream.Ending(rawValue: name) else {
                    throw reader.failure("ending", "expected one of complete, broken, unfinished, found \(JSONWriter.quoted(name))")
                }
                stream.ending = ending
            }
            return .stream(stream)
        }
        guard reader.members.count == 1, let kind = reader.members.keys.first else {
            throw failure(key, "expected exactly one of \"json\", \"text\", \"base64\" or \"stream\"")
        }
        switch kind {
        case "text":
            let text = try reader.string("text")
            return text.isEmpty ? .empty : .text(text)
        case "base64":
            let encoded = try reader.string("base64")
            guard let data = Data(base64Encoded: encoded) else { throw reader.failure("base64", "invalid base64") }
            return data.isEmpty ? .empty : .binary(data)
        default:
            throw failure(key, "expected exactly one of \"json\", \"text\", \"base64\" or \"stream\", found \(JSONWriter.quoted(kind))")
        }
    }
}

extension CassetteFieldReader {
    /// A stream body's parts; offsets must be whole milliseconds that never decrease.
    func stream(_ key: String) throws(MockServerError) -> RecordedStream {
        guard let elements = try optionalArray(key) else { return RecordedStream([]) }
        var parts: [RecordedStream.Part] = []
        parts.reserveCapacity(elements.count)
        for position in elements.indices {
            let part = try CassetteFieldReader(
                elements[position], file: file, interaction: interaction,
                path: fieldPath("\(key)[\(position)]"))
            try part.rejectUnknown(["offsetMs", "event", "id", "retry", "data", "comment", "text", "base64"])
            let offset = try part.optionalInteger("offsetMs") ?? 0
            guard offset >= 0, offset >= (parts.last?.offsetMs ?? 0) else {
                throw part.failure("offsetMs", "expected whole milliseconds of 0 or more, not less than the previous part's, found \(offset)")
            }
            let raw = ["text", "base64"].filter { part.members[$0] != nil }
            let fields = ["event", "id", "retry", "data", "comment"].filter { part.members[$0] != nil }
            let content: RecordedStream.Content
            switch (raw, fields.isEmpty) {
            case (["text"], true):
                content = .text(try part.string("text"))
            case (["base64"], true):
                guard let bytes = Data(base64Encoded: try part.string("base64")) else { throw part.failure("base64", "invalid base64") }
                content = .binary(bytes)
            case ([], false):
                let retry = try part.optionalInteger("retry")
                if let retry, retry < 0 { throw part.failure("retry", "expected milliseconds of 0 or more, found \(retry)") }
                content = .event(
                    ServerSentEventFields(
                        event: try part.optionalString("event"), id: try part.optionalString("id"),
                        retry: retry, data: try part.optionalString("data"),
                        comment: try part.optionalString("comment")))
            default:
                throw part.failure(nil, "expected event fields (event, id, retry, data, comment), or \"text\", or \"base64\"")
            }
            parts.append(RecordedStream.Part(offsetMs: offset, content))
        }
        return RecordedStream(parts)
    }
}

extension MatchRules {
    init(_ reader: CassetteFieldReader) throws(MockServerError) {
        try reader.rejectUnknown(["ignoreQuery", "ignoreBodyFields", "headers", "afterLast", "ignoreBodyPaths", "ignoreXMLElements", "ignoreBody"])
        func strings(_ key: String) throws(MockServerError) -> [String] {
            guard let elements = try reader.optionalArray(key) else { return [] }
            var names: [String] = []
            for (position, element) in elements.enumerated() {
                guard case .string(let name) = element else {
                    throw reader.failure("\(key)[\(position)]", "expected a string, found \(CassetteFieldReader.describe(element))")
                }
                names.append(name)
            }
            return names
        }
        self.init(
            ignoredQueryParameters: try strings("ignoreQuery"), ignoredBodyFields: try strings("ignoreBodyFields"),
            headers: try strings("headers"), ignoredBodyPaths: try strings("ignoreBodyPaths"),
            ignoredXMLElements: try strings("ignoreXMLElements"), ignoredBodies: try strings("ignoreBody"))
        if let problem = bodyRuleProblem { throw reader.failure(problem.key, problem.reason) }
        if let policy = try reader.optionalString("afterLast") {
            guard let parsed = AfterLastPolicy(rawValue: policy) else {
                throw reader.failure("afterLast", "expected one of repeat, cycle, fail, found \(JSONWriter.quoted(policy))")
            }
            afterLast = parsed
        }
    }
}

extension RecordedResponse {
    init(_ reader: CassetteFieldReader) throws(MockServerError) {
        try reader.rejectUnknown(["status", "headers", "body"])
        let status = try reader.integer("status")
        guard (100...999).contains(status) else {
            throw reader.failure("status", "expected a status code from 100 to 999, found \(status)")
        }
        self.init(status: status, headers: try reader.headers("headers"), body: try reader.body("body"))
    }
}

extension RecordedRequest {
    init(_ reader: CassetteFieldReader) throws(MockServerError) {
        try reader.rejectUnknown(["method", "target", "headers", "body"])
        let method = try reader.string("method")
        guard !method.isEmpty, method.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw reader.failure("method", "expected an HTTP method token such as GET, found \(JSONWriter.quoted(method))")
        }
        let target = try reader.string("target")
        guard target.hasPrefix("/") || target == "*" else {
            throw reader.failure("target", "expected a path starting with \"/\", found \(JSONWriter.quoted(target))")
        }
        self.init(method: method, target: target, headers: try reader.headers("headers"), body: try reader.body("body"))
    }
}

extension Interaction {
    init(_ value: CassetteJSON, file: String, index: Int) throws(MockServerError) {
        let reader = try CassetteFieldReader(value, file: file, interaction: index, path: "")
        try reader.rejectUnknown(["recordedAt", "durationMs", "request", "response", "failure", "webSocket"])
        let request = try RecordedRequest(reader.object("request"))
        let outcome: Outcome
        switch (try reader.optionalObject("response"), try reader.optionalObject("failure"), try reader.optionalObject("webSocket")) {
        case (let response?, nil, nil):
            outcome = .response(try RecordedResponse(response))
        case (nil, let failure?, nil):
            outcome = .failure(try TransportFailure(failure))
        case (nil, nil, let conversation?):
            outcome = .webSocket(try RecordedWebSocket(conversation))
        default:
            throw reader.failure(nil, "expected exactly one of \"response\", \"failure\" or \"webSocket\"")
        }
        let duration = try reader.optionalInteger("durationMs")
        if let duration, duration < 0 {
            throw reader.failure("durationMs", "expected a duration of 0 or more milliseconds, found \(duration)")
        }
        self.init(request: request, outcome: outcome, recordedAt: try reader.optionalDate("recordedAt"), durationMs: duration)
    }
}

extension TransportFailure {
    init(_ reader: CassetteFieldReader) throws(MockServerError) {
        try reader.rejectUnknown(["kind", "message"])
        let kindText = try reader.string("kind")
        guard let kind = Kind(rawValue: kindText) else {
            throw reader.failure("kind", "expected one of refused, reset, timeout, found \(JSONWriter.quoted(kindText))")
        }
        self.init(kind: kind, message: try reader.optionalString("message"))
    }
}

extension MockServerError {
    /// `syntax`: the position and problem, and for a file that ends inside its JSON, that it was cut short.
    init(syntax error: JSONParseError, file: String) {
        self.init(code: .syntax, file: file, reason: Self.invalidJSONFile(error))
    }

    /// ``invalidJSON(_:)``, and for a file that ends inside its JSON, that it was cut short: how a cassette's
    /// or a fault plan's syntax error reads after the file's name.
    static func invalidJSONFile(_ error: JSONParseError) -> String {
        invalidJSON(error) + (error.endsEarly ? "; the file ends before its JSON does, so it was cut short" : "")
    }

    /// `invalid JSON at line L, column C: PROBLEM`: how a cassette's or HAR archive's syntax error reads after
    /// the file's name (the error's own `description` is ServiceKit's sentence about a response body).
    static func invalidJSON(_ error: JSONParseError) -> String {
        "invalid JSON at line \(error.line), column \(error.column): \(error.problem)"
    }
}
