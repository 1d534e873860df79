import Foundation

extension FaultPlan {
    /// Reads a plan file: `{"seed": 42, "rules": [RULE, ...]}` where `seed` is optional (default
    /// ``defaultSeed``) and each rule is an object:
    ///
    /// - `"fault"`: the kind name of the CLI spelling (`"reset"`, `"truncate"`, `"status"`, ...), required;
    /// - `"when"` (a trigger in the CLI spelling, default `"always"`), `"path"` (a glob), `"method"`;
    /// - per kind: truncate `"at"` (`"status-line"`, `"headers"`, `"body"`) and `"bytes"`; garbage
    ///   `"bytes"`; latency `"ms"`, or `"minMs"` and `"maxMs"`, or `"medianMs"` and `"sigma"`; throttle
    ///   `"bytesPerSecond"`; status `"status"`, `"retryAfter"`, `"headers"` (`[[name, value], ...]`) and
    ///   `"body"` (`{"json": ...}`, `{"text": "..."}` or `{"base64": "..."}`); content-type
    ///   `"contentType"`; service-error `"template"`; truncate `"at": "event"` with `"events"`; stall
    ///   `"afterEvents"`; event-latency as latency; error-event `"template"` and `"afterEvents"`.
    ///
    /// Unknown keys are errors, so a typo cannot silently disable a rule. Throws ``MockServerError`` naming
    /// the file, the rule number and the key.
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

    /// Decodes a plan from the JSON of a plan file; see ``load(contentsOf:)`` for the format.
    public static func decode(json data: Data) throws(MockServerError) -> FaultPlan {
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw MockServerError(.invalidFaultPlan, "it is not valid JSON")
        }
        guard let root = object as? [String: Any] else {
            throw MockServerError(.invalidFaultPlan, "the top level must be an object with \"seed\" and \"rules\"")
        }
        try PlanObject(root, place: "the top level").allowOnly(["seed", "rules"])
        var seed = defaultSeed
        if let value = root["seed"] {
            guard let number = plainNumber(value), let parsed = UInt64(exactly: number.doubleValue) else {
                throw MockServerError(.invalidFaultPlan, "\"seed\" must be a whole number from 0 to 2^64-1")
            }
            seed = parsed
        }
        guard let list = root["rules"] as? [Any] else {
            throw MockServerError(.invalidFaultPlan, "\"rules\" must be a list of rule objects")
        }
        var rules: [FaultRule] = []
        for (index, item) in list.enumerated() {
            let place = "rule \(index + 1)"
            guard let fields = item as? [String: Any] else { throw MockServerError(.invalidFaultPlan, "\(place) must be an object") }
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
        let common = ["fault", "when", "path", "method"]
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
        default:
            try object.allowOnly(common)
            fault = try Fault.parse(kind: kind, argument: nil)
        }
        let when = try object.optionalString("when").map { text throws(MockServerError) in try FaultTrigger.parse(text) } ?? .always
        return FaultRule(fault, when: when, path: try object.optionalString("path"), method: try object.optionalString("method"))
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
            guard let sigma = plainNumber(object.fields["sigma"]), sigma.doubleValue > 0, sigma.doubleValue <= 5 else {
                throw MockServerError(.invalidFaultPlan, "\"sigma\" must be a number above 0 and at most 5")
            }
            return .logNormal(median: .milliseconds(median), sigma: sigma.doubleValue)
        }
        throw MockServerError(.invalidFaultPlan, "latency needs \"ms\", or \"minMs\" and \"maxMs\", or \"medianMs\" and \"sigma\"")
    }
}

/// One JSON object of a plan file, with typed reads whose errors name the key.
private struct PlanObject {
    let fields: [String: Any]
    let place: String

    init(_ fields: [String: Any], place: String) {
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
        guard let text = value as? String, !text.isEmpty else { throw MockServerError(.invalidFaultPlan, "\"\(key)\" must be a non-empty string") }
        return text
    }

    func integer(_ key: String, in range: ClosedRange<Int>) throws(MockServerError) -> Int {
        guard let value = fields[key] else { throw MockServerError(.invalidFaultPlan, "\"\(key)\" is missing") }
        guard let number = plainNumber(value), let integer = Int(exactly: number.doubleValue), range.contains(integer) else {
            let bound = range.upperBound == Int.max ? "at least \(range.lowerBound)" : "from \(range.lowerBound) to \(range.upperBound)"
            throw MockServerError(.invalidFaultPlan, "\"\(key)\" must be a whole number \(bound)")
        }
        return integer
    }

    func headers(_ key: String) throws(MockServerError) -> HTTPHeaders {
        guard let value = fields[key] else { return [:] }
        guard let pairs = value as? [[Any]], pairs.allSatisfy({ $0.count == 2 && $0[0] is String && $0[1] is String }) else {
            throw MockServerError(.invalidFaultPlan, "\"\(key)\" must be a list of [name, value] string pairs")
        }
        return HTTPHeaders(pairs: pairs.map { ($0[0] as! String, $0[1] as! String) })
    }

    func body(_ key: String) throws(MockServerError) -> Data {
        guard let value = fields[key] else { return Data() }
        guard let body = value as? [String: Any], body.count == 1, let (form, content) = body.first else {
            throw MockServerError(.invalidFaultPlan, "\"\(key)\" must be one of {\"json\": ...}, {\"text\": \"...\"} or {\"base64\": \"...\"}")
        }
        switch (form, content) {
        case ("json", _):
            if let data = try? JSONSerialization.data(withJSONObject: content, options: [.sortedKeys, .withoutEscapingSlashes, .fragmentsAllowed]) {
                return data
            }
        case ("text", let text as String):
            return Data(text.utf8)
        case ("base64", let text as String):
            if let data = Data(base64Encoded: text) { return data }
        default:
            break
        }
        throw MockServerError(.invalidFaultPlan, "\"\(key)\" must be one of {\"json\": ...}, {\"text\": \"...\"} or {\"base64\": \"...\"}")
    }
}

/// The number a JSONSerialization value holds, or `nil` for anything else, booleans included (on Linux a
/// JSON `1` also passes `is Bool`, so the check looks at the boxed type code instead).
private func plainNumber(_ value: Any?) -> NSNumber? {
    guard let number = value as? NSNumber, String(cString: number.objCType) != "c" else { return nil }
    return number
}
