import Foundation
import ServiceReplayShared

extension FaultPlan {
    /// Reads a plan file: `{"seed": 42, "rules": [RULE, ...]}` where `seed` is optional (default
    /// ``defaultSeed``) and each rule is an object:
    ///
    /// - `"fault"`: the kind name of the CLI spelling (`"reset"`, `"truncate"`, `"status"`, ...), required;
    /// - `"when"` (a trigger in the CLI spelling, default `"always"`), `"path"` (a glob), `"method"`, `"operation"`
    ///   (a GraphQL operation's name);
    /// - per kind: truncate `"at"` (`"status-line"`, `"headers"`, `"body"`) and `"bytes"`; garbage
    ///   `"bytes"`; latency `"ms"`, or `"minMs"` and `"maxMs"`, or `"medianMs"` and `"sigma"`; throttle
    ///   `"bytesPerSecond"`; status `"status"`, `"retryAfter"`, `"headers"` (`[[name, value], ...]`) and
    ///   `"body"` (`{"json": ...}`, `{"text": "..."}` or `{"base64": "..."}`); content-type
    ///   `"contentType"`; service-error `"template"`; truncate `"at": "event"` with `"events"`; stall
    ///   `"afterEvents"`; event-latency as latency; error-event `"template"` and `"afterEvents"`; graphql-error
    ///   `"code"`; ws-drop, ws-malformed and ws-stall `"afterMessages"`; ws-close `"code"` (a number) and
    ///   `"afterMessages"`; ws-delay `"ms"` and `"afterMessages"` (`"afterMessages"` defaults to 0).
    ///
    /// Unknown keys are errors, so a typo cannot silently disable a rule. Throws ``MockServerError`` naming
    /// the file, the rule number and the key, or for JSON that does not parse, the line and column.
    public static func load(contentsOf url: URL) throws(MockServerError) -> FaultPlan {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw MockServerError(.invalidFaultPlan, "cannot read fault plan \(url.path): \(error.localizedDescription)")
        }
        do {
            return try decode(json: data)
        } catch {
            throw error.prefixed("fault plan \(url.path)")
        }
    }

    /// Decodes a plan from the JSON of a plan file; see ``load(contentsOf:)`` for the format. JSON that does
    /// not parse is reported with its line and column, as a broken cassette is.
    public static func decode(json data: Data) throws(MockServerError) -> FaultPlan {
        let document: CassetteJSON
        do throws(JSONParseError) {
            document = try CassetteJSON(parsing: data)
        } catch {
            throw MockServerError(.invalidFaultPlan, MockServerError.invalidJSONFile(error))
        }
        guard case .object(let root) = document else {
            throw MockServerError(.invalidFaultPlan, "the top level must be an object with \"seed\" and \"rules\"")
        }
        try PlanObject(root, place: "the top level").allowOnly(["seed", "rules"])
        var seed = defaultSeed
        if let value = root["seed"] {
            // Read from the literal: a double would round seeds above 2^53.
            guard case .number(let number) = value, let parsed = number.exactly(UInt64.self) else {
                throw MockServerError(.invalidFaultPlan, "\"seed\" must be a whole number from 0 to 2^64-1")
            }
            seed = parsed
        }
        guard case .array(let list)? = root["rules"] else {
            throw MockServerError(.invalidFaultPlan, "\"rules\" must be a list of rule objects")
        }
        var rules: [FaultRule] = []
        for (index, item) in list.enumerated() {
            let place = "rule \(index + 1)"
            guard case .object(let fields) = item else { throw MockServerError(.invalidFaultPlan, "\(place) must be an object") }
            do {
                rules.append(try rule(from: PlanObject(fields, place: place)))
            } catch {
                throw error.prefixed(place)
            }
        }
        return try FaultPlan(seed: seed, rules: rules)
    }

    private static func rule(from object: PlanObject) throws(MockServerError) -> FaultRule {
        let kind = try object.string("fault")
        let common = ["fault", "when", "path", "method", "operation"]
        let fault: Fault
        switch kind {
        case "truncate":
            try object.allowOnly(common + ["at", "bytes", "events"])
            let at = try object.string("at")
            switch at {
            case "body": fault = .truncate(.body(bytes: try object.integer("bytes", in: 0...Int.max)))
            case "event": fault = .truncate(.event(try object.integer("events", in: 0...Int.max)))
            default: fault = .truncate(try TruncationPoint.parse(at))
            }
        case "stall":
            try object.allowOnly(common + ["afterEvents"])
            fault = object.has("afterEvents") ? .stall(afterEvents: try object.integer("afterEvents", in: 0...Int.max)) : .stall
        case "event-latency":
            try object.allowOnly(common + ["ms", "minMs", "maxMs", "medianMs", "sigma"])
            fault = .eventLatency(try latency(from: object))
        case "error-event":
            try object.allowOnly(common + ["template", "afterEvents"])
            fault = .errorEvent(
                try object.string("template"),
                afterEvents: object.has("afterEvents") ? try object.integer("afterEvents", in: 0...Int.max) : 0)
        case "garbage":
            try object.allowOnly(common + ["bytes"])
            fault = object.has("bytes") ? .garbage(bytes: try object.integer("bytes", in: 1...(1 << 20))) : .garbage()
        case "latency":
            try object.allowOnly(common + ["ms", "minMs", "maxMs", "medianMs", "sigma"])
            fault = .latency(try latency(from: object))
        case "throttle":
            try object.allowOnly(common + ["bytesPerSecond"])
            fault = .throttle(bytesPerSecond: try object.integer("bytesPerSecond", in: 1...ThrottleRate.maximumBytesPerSecond))
        case "status":
            try object.allowOnly(common + ["status", "retryAfter", "headers", "body"])
            fault = .status(
                try object.integer("status", in: 100...599), retryAfter: try object.optionalString("retryAfter"),
                headers: try object.headers("headers"), body: try object.body("body"))
        case "content-type":
            try object.allowOnly(common + ["contentType"])
            fault = try Fault.parse(kind: kind, argument: try object.string("contentType"))
        case "service-error":
            try object.allowOnly(common + ["template"])
            fault = .serviceError(try object.string("template"))
        case "ws-drop", "ws-malformed", "ws-stall":
            try object.allowOnly(common + ["afterMessages"])
            fault = try Fault.parse(kind: kind, argument: String(try afterMessages(in: object)))
        case "ws-close":
            try object.allowOnly(common + ["code", "afterMessages"])
            let code = try object.integer("code", in: 0...Int(UInt16.max))
            fault = try Fault.parse(kind: kind, argument: String(code), after: try afterMessages(in: object))
        case "ws-delay":
            try object.allowOnly(common + ["ms", "afterMessages"])
            fault = .webSocketDelay(.milliseconds(try object.integer("ms", in: 0...3_600_000)), afterMessages: try afterMessages(in: object))
        case "graphql-error":
            try object.allowOnly(common + ["code"])
            fault = try Fault.parse(kind: kind, argument: try object.optionalString("code"))
        default:
            try object.allowOnly(common)
            fault = try Fault.parse(kind: kind, argument: nil)
        }
        let when = try object.optionalString("when").map { text throws(MockServerError) in try FaultTrigger.parse(text) } ?? .always
        return FaultRule(
            fault, when: when, path: try object.optionalString("path"), method: try object.optionalString("method"),
            operation: try object.optionalString("operation"))
    }

    /// A WebSocket fault's `"afterMessages"`, 0 when absent.
    private static func afterMessages(in object: PlanObject) throws(MockServerError) -> Int {
        object.has("afterMessages") ? try object.integer("afterMessages", in: 0...Int.max) : 0
    }

    private static func latency(from object: PlanObject) throws(MockServerError) -> LatencyDistribution {
        if object.has("ms") {
            return .fixed(.milliseconds(try object.integer("ms", in: 0...3_600_000)))
        }
        if object.has("minMs") || object.has("maxMs") {
            let low = try object.integer("minMs", in: 0...3_600_000)
            let high = try object.integer("maxMs", in: low...3_600_000)
            return .uniform(.milliseconds(low) ... .milliseconds(high))
        }
        if object.has("medianMs") {
            let median = try object.integer("medianMs", in: 0...3_600_000)
            guard case .number(let sigma)? = object.fields["sigma"], sigma.doubleValue > 0, sigma.doubleValue <= 5 else {
                throw MockServerError(.invalidFaultPlan, "\"sigma\" must be a number above 0 and at most 5")
            }
            return .logNormal(median: .milliseconds(median), sigma: sigma.doubleValue)
        }
        throw MockServerError(.invalidFaultPlan, "latency needs \"ms\", or \"minMs\" and \"maxMs\", or \"medianMs\" and \"sigma\"")
    }
}

/// One JSON object of a plan file, with typed reads whose errors name the key.
private struct PlanObject {
    let fields: CassetteJSON.Members
    let place: String

    init(_ fields: CassetteJSON.Members, place: String) {
        self.fields = fields
        self.place = place
    }

    func has(_ key: String) -> Bool { fields[key] != nil }

    func allowOnly(_ keys: [String]) throws(MockServerError) {
        if let unknown = fields.keys.sorted().first(where: { !keys.contains($0) }) {
            throw MockServerError(.invalidFaultPlan, "key \"\(unknown)\" is not one of \(keys.map { "\"\($0)\"" }.joined(separator: ", "))")
        }
    }

    func string(_ key: String) throws(MockServerError) -> String {
        guard let value = try optionalString(key) else { throw MockServerError(.invalidFaultPlan, "\"\(key)\" is missing") }
        return value
    }

    func optionalString(_ key: String) throws(MockServerError) -> String? {
        guard let value = fields[key] else { return nil }
        guard case .string(let text) = value, !text.isEmpty else { throw MockServerError(.invalidFaultPlan, "\"\(key)\" must be a non-empty string") }
        return text
    }

    func integer(_ key: String, in range: ClosedRange<Int>) throws(MockServerError) -> Int {
        guard let value = fields[key] else { throw MockServerError(.invalidFaultPlan, "\"\(key)\" is missing") }
        guard case .number(let number) = value, let integer = number.intValue, range.contains(integer) else {
            let bound = range.upperBound == Int.max ? "at least \(range.lowerBound)" : "from \(range.lowerBound) to \(range.upperBound)"
            throw MockServerError(.invalidFaultPlan, "\"\(key)\" must be a whole number \(bound)")
        }
        return integer
    }

    func headers(_ key: String) throws(MockServerError) -> HTTPHeaders {
        guard let value = fields[key] else { return [:] }
        guard case .array(let elements) = value else { throw headersError(key) }
        var pairs: [(String, String)] = []
        for element in elements {
            guard case .array(let pair) = element, pair.count == 2, case .string(let name) = pair[0], case .string(let text) = pair[1] else {
                throw headersError(key)
            }
            pairs.append((name, text))
        }
        return HTTPHeaders(pairs: pairs)
    }

    private func headersError(_ key: String) -> MockServerError {
        MockServerError(.invalidFaultPlan, "\"\(key)\" must be a list of [name, value] string pairs")
    }

    /// The bytes of a `{"json": ...}`, `{"text": ...}` or `{"base64": ...}` body. A JSON body is sent as a
    /// cassette's is: compact, its members in the file's order and its numbers as written.
    func body(_ key: String) throws(MockServerError) -> Data {
        guard let value = fields[key] else { return Data() }
        guard case .object(let body) = value, body.count == 1, let form = body.keys.first, let content = body[form] else {
            throw bodyError(key)
        }
        switch (form, content) {
        case ("json", _):
            return RecordedBody.json(content).data
        case ("text", .string(let text)):
            return Data(text.utf8)
        case ("base64", .string(let text)):
            if let data = Data(base64Encoded: text) { return data }
        default:
            break
        }
        throw bodyError(key)
    }

    private func bodyError(_ key: String) -> MockServerError {
        MockServerError(.invalidFaultPlan, "\"\(key)\" must be one of {\"json\": ...}, {\"text\": \"...\"} or {\"base64\": \"...\"}")
    }
}
