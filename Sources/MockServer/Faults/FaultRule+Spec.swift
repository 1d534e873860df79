import ServiceReplayShared
extension FaultRule {
    /// Parses one rule in the CLI spelling `KIND[=ARG][,when=TRIGGER][,path=GLOB][,method=METHOD][,operation=NAME]`
    /// (a GraphQL operation's name); a
    /// status fault also takes `,retry-after=VALUE`, an error-event fault `,after=N` (events before it), and `ws-close`
    /// and `ws-delay` `,after=N` (server messages before it). Throws ``MockServerError`` naming the spec and its bad
    /// part.
    public static func parse(spec: String) throws(MockServerError) -> FaultRule {
        let trimmed = spec.trimmingWhitespace()
        do {
            return try parseTrimmed(trimmed)
        } catch {
            throw error.prefixed("invalid fault spec '\(trimmed)'")
        }
    }

    private static func parseTrimmed(_ spec: String) throws(MockServerError) -> FaultRule {
        // Split by scalars, not Characters: a combining mark after `,` or `=` would join the separator into
        // one Character and hide it.
        let fields = spec.unicodeScalars.split(separator: ",", omittingEmptySubsequences: false).map {
            String(Substring($0)).trimmingWhitespace()
        }
        guard let head = fields.first, !head.isEmpty else {
            throw MockServerError(.invalidFaultPlan, "it names no fault kind")
        }
        let (kind, argument) = splitOnce(head, at: "=")
        var trigger = FaultTrigger.always
        var path: String?
        var method: String?
        var operation: String?
        var retryAfter: String?
        var after = 0
        var seen: Set<String> = []
        for field in fields.dropFirst() {
            let (key, value) = splitOnce(field, at: "=")
            guard let value, !value.isEmpty else {
                throw MockServerError(.invalidFaultPlan, "option '\(field)' needs a value, as in when=first:2")
            }
            guard seen.insert(key).inserted else {
                throw MockServerError(.invalidFaultPlan, "option '\(key)' is given twice")
            }
            switch key {
            case "when": trigger = try FaultTrigger.parse(value)
            case "path": path = value
            case "method":
                guard value.allSatisfy({ $0.isLetter }) else { throw MockServerError(.invalidFaultPlan, "method '\(value)' is not an HTTP method token") }
                method = value
            case "operation":
                guard GraphQLDocument.isName(value) else {
                    throw MockServerError(
                        .invalidFaultPlan, "operation '\(value)' is not a GraphQL operation name (letters, digits and _, not starting with a digit)")
                }
                operation = value
            case "retry-after" where kind == "status": retryAfter = value
            case "after" where Fault.takesAfter(kind):
                guard let count = Int(value), count >= 0 else {
                    let unit = kind == "error-event" ? "events" : "server messages"
                    throw MockServerError(.invalidFaultPlan, "after takes a number of \(unit), such as after=2")
                }
                after = count
            default:
                let extra = kind == "status" ? ", retry-after" : Fault.takesAfter(kind) ? ", after" : ""
                throw MockServerError(.invalidFaultPlan, "option '\(key)' is not one of when, path, method, operation\(extra)")
            }
        }
        let fault = try Fault.parse(kind: kind, argument: argument, retryAfter: retryAfter, after: after)
        if fault.actsOnAccept, path != nil || method != nil || operation != nil {
            throw MockServerError(.invalidFaultPlan, "refuse acts before a request is read, so it cannot be filtered by path, method or operation")
        }
        return FaultRule(fault, when: trigger, path: path, method: method, operation: operation)
    }

    private static func splitOnce(_ text: String, at separator: Unicode.Scalar) -> (String, String?) {
        let scalars = text.unicodeScalars
        guard let index = scalars.firstIndex(of: separator) else { return (text, nil) }
        return (String(Substring(scalars[..<index])), String(Substring(scalars[scalars.index(after: index)...])))
    }
}

extension Fault {
    /// Every kind name the CLI spelling accepts, in documentation order.
    public static let kindNames = [
        "refuse", "reset", "empty", "truncate", "malformed-chunk", "garbage", "stall", "latency", "throttle",
        "status", "corrupt-body", "empty-body", "content-type", "service-error", "event-latency", "error-event", "graphql-error",
        "ws-drop", "ws-close", "ws-malformed", "ws-stall", "ws-delay",
    ]

    /// Whether the kind named `kind` takes the option `after=N`.
    static func takesAfter(_ kind: String) -> Bool {
        kind == "error-event" || kind == "ws-close" || kind == "ws-delay"
    }

    /// Builds a fault from its CLI kind name and argument (the part after `=`, if any); `after` is the `after=N`
    /// option of the kinds that take one (``takesAfter(_:)``).
    static func parse(kind: String, argument: String?, retryAfter: String? = nil, after: Int = 0) throws(MockServerError) -> Fault {
        func noArgument(_ fault: Fault) throws(MockServerError) -> Fault {
            guard argument == nil else { throw MockServerError(.invalidFaultPlan, "\(kind) takes no argument") }
            return fault
        }
        func required(_ example: String) throws(MockServerError) -> String {
            guard let argument, !argument.isEmpty else { throw MockServerError(.invalidFaultPlan, "\(kind) needs an argument, as in \(example)") }
            return argument
        }
        switch kind {
        case "refuse": return try noArgument(.refuse)
        case "reset": return try noArgument(.reset)
        case "empty": return try noArgument(.empty)
        case "malformed-chunk": return try noArgument(.malformedChunk)
        case "stall":
            guard let argument else { return .stall }
            guard argument.hasPrefix("event:"), let count = Int(argument.dropFirst(6)), count >= 0 else {
                throw MockServerError(.invalidFaultPlan, "stall takes no argument or event:N, such as stall=event:3")
            }
            return .stall(afterEvents: count)
        case "corrupt-body": return try noArgument(.corruptBody)
        case "empty-body": return try noArgument(.emptyBody)
        case "truncate": return .truncate(try TruncationPoint.parse(required("truncate=body:10")))
        case "garbage":
            guard let argument else { return .garbage() }
            guard let bytes = Int(argument), bytes >= 1, bytes <= 1 << 20 else {
                throw MockServerError(.invalidFaultPlan, "garbage takes a byte count from 1 to 1048576, such as garbage=256")
            }
            return .garbage(bytes: bytes)
        case "latency": return .latency(try LatencyDistribution.parse(required("latency=200ms")))
        case "throttle": return .throttle(bytesPerSecond: try ThrottleRate.parse(required("throttle=2kbps")))
        case "status":
            let text = try required("status=503")
            guard let code = Int(text), (100...599).contains(code) else {
                throw MockServerError(.invalidFaultPlan, "status takes an HTTP status code from 100 to 599, such as status=503")
            }
            return .status(code, retryAfter: retryAfter)
        case "content-type":
            let type = try required("content-type=text/html")
            guard type.contains("/") else { throw MockServerError(.invalidFaultPlan, "content-type '\(type)' is not a media type such as text/html") }
            return .contentType(type)
        case "service-error": return .serviceError(try required("service-error=throttle_violation"))
        case "event-latency": return .eventLatency(try LatencyDistribution.parse(required("event-latency=200ms")))
        case "error-event": return .errorEvent(try required("error-event=server_error,after=2"), afterEvents: after)
        case "graphql-error":
            guard let argument else { return .graphQLError() }
            guard GraphQLDocument.isName(argument) else {
                throw MockServerError(.invalidFaultPlan, "graphql-error takes an error code made of letters, digits and _, such as graphql-error=FORBIDDEN")
            }
            return .graphQLError(code: argument)
        case "ws-drop": return .webSocketDrop(afterMessages: try messageCount(argument, kind: kind))
        case "ws-malformed": return .webSocketMalformedFrame(afterMessages: try messageCount(argument, kind: kind))
        case "ws-stall": return .webSocketStall(afterMessages: try messageCount(argument, kind: kind))
        case "ws-close":
            let text = try required("ws-close=1011")
            guard let code = UInt16(text), WebSocketClose.isSendable(code) else {
                throw MockServerError(.invalidFaultPlan, WebSocketFault.unsendableCode(text))
            }
            return .webSocketClose(code: code, afterMessages: after)
        case "ws-delay":
            guard let delay = DurationSpelling.parse(try required("ws-delay=500ms")) else {
                throw MockServerError(.invalidFaultPlan, "ws-delay takes a duration of at most an hour, such as ws-delay=500ms or ws-delay=1.5s")
            }
            return .webSocketDelay(delay, afterMessages: after)
        default:
            throw MockServerError(.invalidFaultPlan, "'\(kind)' is not a fault kind; use one of \(kindNames.joined(separator: ", "))")
        }
    }
}

extension Fault {
    /// The server messages before a `ws-drop`, `ws-malformed` or `ws-stall` strikes: its argument, 0 without one.
    private static func messageCount(_ argument: String?, kind: String) throws(MockServerError) -> Int {
        guard let argument else { return 0 }
        guard let count = Int(argument), count >= 0 else {
            throw MockServerError(.invalidFaultPlan, "\(kind) takes a number of server messages to send first, such as \(kind)=2")
        }
        return count
    }
}

extension TruncationPoint {
    /// Parses `status-line`, `headers`, `body:N` or `event:N` (N ≥ 0).
    static func parse(_ text: String) throws(MockServerError) -> TruncationPoint {
        switch text {
        case "status-line": return .statusLine
        case "headers": return .headers
        default:
            if text.hasPrefix("event:"), let events = Int(text.dropFirst(6)), events >= 0 {
                return .event(events)
            }
            guard text.hasPrefix("body:"), let bytes = Int(text.dropFirst(5)), bytes >= 0 else {
                throw MockServerError(.invalidFaultPlan, "truncate takes status-line, headers, body:N or event:N, such as truncate=body:10")
            }
            return .body(bytes: bytes)
        }
    }
}

extension LatencyDistribution {
    /// Parses `200ms`, `1.5s`, `100..300ms` or `lognormal:MEDIAN:SIGMA` (e.g. `lognormal:120ms:0.5`).
    static func parse(_ text: String) throws(MockServerError) -> LatencyDistribution {
        if text.hasPrefix("lognormal:") {
            let parts = text.split(separator: ":").map(String.init)
            guard parts.count == 3, let median = DurationSpelling.parse(parts[1]), let sigma = Double(parts[2]), sigma > 0, sigma <= 5 else {
                throw MockServerError(
                    .invalidFaultPlan, "latency=lognormal takes a median of at most an hour and a sigma from 0 to 5, such as lognormal:120ms:0.5")
            }
            return .logNormal(median: median, sigma: sigma)
        }
        if let dots = text.range(of: "..") {
            let low = text[..<dots.lowerBound]
            let rest = text[dots.upperBound...]
            guard rest.hasSuffix("ms"), let lower = DurationSpelling.parseMilliseconds(low),
                let upper = DurationSpelling.parseMilliseconds(rest.dropLast(2)), lower <= upper
            else {
                throw MockServerError(.invalidFaultPlan, "latency range '\(text)' must read LOW..HIGHms with LOW ≤ HIGH ≤ 3600000, such as 100..300ms")
            }
            return .uniform(lower...upper)
        }
        guard let delay = DurationSpelling.parse(text) else {
            throw MockServerError(
                .invalidFaultPlan, "latency takes a duration of at most an hour such as 200ms or 1.5s, a range such as 100..300ms, or lognormal:120ms:0.5")
        }
        return .fixed(delay)
    }
}

/// Reads throttle rates: bits per second (`bps`, `kbps`, `mbps`, decimal multiples, as network speeds are
/// quoted) or bytes per second (`B/s`, `KB/s`, `MB/s`, binary multiples).
enum ThrottleRate {
    /// The fastest rate any spelling accepts, 1 TB/s: far above loopback speed, and low enough that every
    /// rate survives the round trip through a `Double` and a spec's `B/s` spelling exactly.
    static let maximumBytesPerSecond = 1 << 40

    static func parse(_ text: String) throws(MockServerError) -> Int {
        let units: [(suffix: String, bytesPerUnit: Double)] = [
            ("kbps", 1000 / 8), ("mbps", 1_000_000 / 8), ("bps", 1.0 / 8),
            ("KB/s", 1024), ("MB/s", 1024 * 1024), ("B/s", 1),
        ]
        for unit in units where text.hasSuffix(unit.suffix) {
            if let value = Double(text.dropLast(unit.suffix.count)), value > 0, value.isFinite {
                let rate = (value * unit.bytesPerUnit).rounded()
                if rate >= 1, rate <= Double(maximumBytesPerSecond) { return Int(rate) }
            }
            break
        }
        throw MockServerError(.invalidFaultPlan, "throttle takes a rate such as 2kbps, 64KB/s or 500B/s, from 1 byte to 1 TB per second")
    }
}

extension String {
    /// The string without leading and trailing white space (Unicode's, newlines included), judged scalar by
    /// scalar so that a combining mark after a space is kept rather than trimmed with it.
    func trimmingWhitespace() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(Substring(scalars[first...last]))
    }
}
