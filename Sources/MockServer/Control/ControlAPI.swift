import Foundation
import ServiceReplayShared

/// The control API every ``CassetteServer`` answers under `/__mockserver/`, for clients in any language: the
/// journal, the near misses and the unused interactions, as JSON, and the fault plan and the sequences to change
/// (the recorder article's "The control API" gives the shapes); and, at the prefix itself, the journal page that
/// shows them in a browser (``JournalPage``).
///
/// Who may call it: without a token, only clients on loopback (a server bound elsewhere refuses to start, see
/// ``CassetteServer/Configuration/controlToken``); with a token, every control request must carry
/// `Authorization: Bearer TOKEN`, wherever it comes from; and a call that would change the server's state, sent
/// by a web page of another origin, is refused either way (``crossSiteRefusal(of:)``). A refused call gets 403 and
/// a one-sentence JSON error. (A `Host` the server does not answer never gets this far: see ``ControlHandler``.)
final class ControlAPI: Sendable {
    /// The reserved prefix: no request under it reaches the cassettes, the recording, the faults or the journal.
    static let prefix = "/__mockserver/"
    /// The prefix without its slash, as a browser's address bar may be given it: redirected to the page.
    static let bare = String(prefix.dropLast())
    /// The endpoints, as the answer to an unknown path lists them.
    static let endpoints = [
        "GET /__mockserver/ (the journal page)", "GET /__mockserver/journal[?since=N]", "GET /__mockserver/journal/events[?since=N]",
        "GET /__mockserver/journal.har", "GET /__mockserver/unmatched", "GET /__mockserver/unused",
        "GET, PUT or DELETE /__mockserver/faults[?seed=N]", "GET or PUT /__mockserver/cassettes", "POST /__mockserver/reset",
    ]

    /// The server this API reads and steers, once it has said so (``steer(_:)``).
    private let controlled = Lock(ControlledServerReference())
    /// `Bearer TOKEN`, or `nil` when only loopback clients may call.
    private let expectedAuthorization: String?
    /// How credentials in the requests shown are hidden: the recording's rules.
    private let redaction: RedactionRules

    /// How often an event stream with nothing to send sends its keep-alive comment.
    private let keepAliveInterval: Duration

    init(token: String?, redaction: RedactionRules, keepAliveInterval: Duration = .seconds(15)) {
        expectedAuthorization = token.map { "Bearer \($0)" }
        self.redaction = redaction
        self.keepAliveInterval = keepAliveInterval
    }

    /// Makes `server` the one the API reads and changes: the server calls this once it is initialized.
    func steer(_ server: any ControlledServer) {
        controlled.withLock { $0.server = server }
    }

    /// Whether `request` is for the control API: its path is under ``prefix`` or is ``bare``, and it was not
    /// routed from an app (an app's request for `https://api.example.com/__mockserver/…` is the app's, matched
    /// as any other).
    static func isControlRequest(_ request: HTTPRequest) -> Bool {
        // Compared as bytes in place: this runs for every request. Reserved: ``bare``, then the end, `/` (under
        // ``prefix``) or `?` (``bare`` with a query).
        guard request.target.utf8.count >= Self.bare.utf8.count else { return false }
        var target = request.target
        var bare = Self.bare
        let reserved = target.withUTF8 { target in
            bare.withUTF8 { bare in
                guard target.prefix(bare.count).elementsEqual(bare) else { return false }
                return target.count == bare.count || target[bare.count] == UInt8(ascii: "/") || target[bare.count] == UInt8(ascii: "?")
            }
        }
        return reserved && request.headers[HTTPRequest.routedHostHeader] == nil
    }

    /// The answer to a control request.
    func reply(to request: HTTPRequest, context: HTTPRequestContext) -> HTTPReply {
        if let refusal = refusal(of: request, from: context.connection.remoteAddress) ?? Self.crossSiteRefusal(of: request) {
            return Self.error(403, refusal)
        }
        // Only before the server's initializer has finished, or after it is gone: no request is served then.
        guard let server = controlled.withLock({ $0.server }) else { return Self.error(503, "the server is not running.") }
        if request.path == Self.bare {
            // Relative addresses in the page resolve against the prefix, so it is only ever served there.
            let location = Self.prefix + (request.query.map { "?" + $0 } ?? "")
            // No Content-Length: the server writes it from the (empty) body.
            return .response(status: 308, headers: HTTPHeaders(pairs: [("Location", location)]))
        }
        let endpoint = String(request.path.dropFirst(Self.prefix.count))
        let query = ControlQuery(request.query)
        switch endpoint {
        case "":
            guard request.method == "GET" else { return Self.methodNotAllowed(request, allowed: "GET") }
            return JournalPage.reply
        case "journal":
            guard request.method == "GET" else { return Self.methodNotAllowed(request, allowed: "GET") }
            let since: Int
            switch query.integer("since") {
            case .absent: since = 0
            case .value(let value): since = value
            case .invalid(let text):
                return Self.error(400, "since must be a whole number of 0 or more (the next value the last answer gave), not '\(text)'.")
            }
            return Self.json(journal(of: server, since: since))
        case "journal/events":
            guard request.method == "GET" else { return Self.methodNotAllowed(request, allowed: "GET") }
            var since: Int
            switch query.integer("since") {
            case .absent: since = 0
            case .value(let value): since = value
            case .invalid(let text):
                return Self.error(400, "since must be a whole number of 0 or more (the next value the last answer gave), not '\(text)'.")
            }
            // A reconnecting EventSource names the last message it had; the URL it repeats still has the first since.
            if let lastEventID = request.headers["Last-Event-ID"] {
                guard let last = Int(lastEventID.trimmingWhitespace()), last >= 0, last < Int.max else {
                    return Self.error(400, "Last-Event-ID must be the id of an event this stream sent, a whole number of 0 or more, not '\(lastEventID)'.")
                }
                since = last + 1
            }
            let stream = JournalEventStream(
                journal: server.journal, redaction: redaction, since: since, keepAliveInterval: keepAliveInterval)
            stream.start()
            return .live(stream.live)
        case "journal.har":
            guard request.method == "GET" else { return Self.methodNotAllowed(request, allowed: "GET") }
            let base = server.baseURL.map { $0.absoluteString.hasSuffix("/") ? String($0.absoluteString.dropLast()) : $0.absoluteString }
            do throws(MockServerError) {
                let body = try JournalHAR.document(of: server.journal, base: base ?? "http://127.0.0.1", redaction: redaction).encoded()
                let headers = [
                    ("Content-Type", "application/json; charset=utf-8"), ("Cache-Control", "no-store"),
                    ("Content-Disposition", "attachment; filename=\"journal.har\""), ("Content-Length", String(body.count)),
                ]
                return .response(status: 200, headers: HTTPHeaders(pairs: headers), body: body)
            } catch {
                return Self.error(500, Self.sentence("cannot write the journal as HAR: \(error.description)"))
            }
        case "unmatched":
            guard request.method == "GET" else { return Self.methodNotAllowed(request, allowed: "GET") }
            return Self.json(unmatched(of: server))
        case "unused":
            guard request.method == "GET" else { return Self.methodNotAllowed(request, allowed: "GET") }
            return Self.json(Self.unused(of: server))
        case "faults":
            return Self.faults(of: server, request, query: query)
        case "cassettes":
            return Self.cassettes(of: server, request)
        case "reset":
            guard request.method == "POST" else { return Self.methodNotAllowed(request, allowed: "POST") }
            server.resetSequences()
            server.journal.reset()
            server.unmatched.reset()
            return Self.json(CassetteJSON.sortedObject(["reset": ["sequences", "journal", "unmatched"]]))
        default:
            return Self.error(
                404, "there is no control endpoint \(request.method) \(request.path); there are \(Self.endpoints.joined(separator: ", ")).")
        }
    }

    /// `GET` shows the plan in force, `PUT` replaces it with the body's (rules as `MOCKSERVER_FAULTS` spells them
    /// inline, separated by `;`, or a plan file's JSON; `?seed=N` sets the seed), `DELETE` clears it. A plan
    /// that cannot apply is a 400 with the server's sentence, and the plan in force stays.
    private static func faults(of server: any ControlledServer, _ request: HTTPRequest, query: ControlQuery) -> HTTPReply {
        switch request.method {
        case "GET":
            return Self.json(Self.plan(server.faultPlan))
        case "DELETE":
            do throws(MockServerError) {
                try server.setFaultPlan(FaultPlan?.none)
            } catch {
                return Self.error(400, Self.sentence(error.description))
            }
            return Self.json(Self.plan(server.faultPlan))
        case "PUT":
            guard let text = String(validUTF8: request.body), !text.trimmingWhitespace().isEmpty else {
                return Self.error(400, "give the fault rules as the body (for example status=503,when=first:1), or DELETE to clear them.")
            }
            do throws(MockServerError) {
                var plan = text.trimmingWhitespace().hasPrefix("{") ? try FaultPlan.decode(json: request.body) : try FaultPlan.parse(specs: text)
                switch query.integer("seed") {
                case .absent: break
                case .value(let seed): plan.seed = UInt64(seed)
                case .invalid(let text): return Self.error(400, "seed must be a whole number of 0 or more, not '\(text)'.")
                }
                try server.setFaultPlan(plan)
            } catch {
                return Self.error(400, Self.sentence(error.description))
            }
            return Self.json(Self.plan(server.faultPlan))
        default:
            return Self.methodNotAllowed(request, allowed: "GET, PUT, DELETE")
        }
    }

    /// `GET` lists the cassettes served and those the recordings folder holds; `PUT` with
    /// `{"cassettes": ["name", ...]}` serves the cassettes of those names from the recordings folder instead
    /// (loaded off the event loop), answering as `GET`. A malformed body, an unknown name, a server without a
    /// recordings folder or one that records is a 400 with one sentence, and the cassettes served stay.
    private static func cassettes(of server: any ControlledServer, _ request: HTTPRequest) -> HTTPReply {
        switch request.method {
        case "GET":
            return json(cassetteList(of: server))
        case "PUT":
            guard let folder = server.recordingsFolder else {
                return error(400, "this server has no recordings folder to load cassettes from by name; serve a folder with recorder replay.")
            }
            let names: [String]
            switch cassetteNames(in: request.body) {
            case .success(let given): names = given
            case .failure(let refusal): return error(400, refusal.sentence)
            }
            return .deferred { responder in
                ServerTaskExecutor.task {
                    _ = responder.send(replaceCassettes(of: server, with: names, from: folder))
                }
            }
        default:
            return methodNotAllowed(request, allowed: "GET, PUT")
        }
    }

    /// A refusal as one sentence.
    struct Refusal: Error {
        let sentence: String
    }

    /// The names in a `PUT cassettes` body, `{"cassettes": ["name", ...]}`, or why they cannot be taken.
    static func cassetteNames(in body: Data) -> Result<[String], Refusal> {
        let shape = #"give the cassettes as {"cassettes": ["name", ...]}, names as GET /__mockserver/cassettes lists them available"#
        guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any], object.count == 1,
            let names = object["cassettes"] as? [String]
        else { return .failure(Refusal(sentence: "the body is not a list of cassette names; \(shape).")) }
        for name in names {
            let parts = name.split(separator: "/", omittingEmptySubsequences: false)
            if name.isEmpty || name.hasPrefix("/") || parts.contains("..") || parts.contains(".") {
                return .failure(Refusal(sentence: "'\(name)' is not the name of a cassette in the recordings folder; \(shape)."))
            }
        }
        return .success(names)
    }

    /// Loads the cassettes `names` from `folder` and serves them; the answer as `GET` gives it, or a 400 saying
    /// why not (the cassettes served stay).
    private static func replaceCassettes(of server: any ControlledServer, with names: [String], from folder: URL) -> HTTPReply {
        do {
            var loaded: [LoadedCassette] = []
            for name in names {
                loaded += try NamedCassettes.loaded(named: name, in: folder)
            }
            try server.replaceCassettes(loaded: loaded)
        } catch let error as MockServerError {
            return Self.error(400, sentence("the cassettes served stay as they were: " + error.description))
        } catch {
            return Self.error(400, sentence("the cassettes served stay as they were: \(error)"))
        }
        return json(cassetteList(of: server))
    }

    /// `{"served": ["name", ...], "available": ["name", ...]}`: the names of the cassettes served and the names
    /// `PUT` takes (files under the recordings folder, without `.json`; `null` without a folder), in one spelling:
    /// a cassette served from a file under the folder is named as `PUT` takes it, any other by its own name.
    private static func cassetteList(of server: any ControlledServer) -> CassetteJSON {
        let folder = server.recordingsFolder
        var available = CassetteJSON.null
        if let folder, let files = try? Cassette.files(in: folder) {
            available = .array(files.map { CassetteJSON.string(ReplayEngine.name(of: $0, in: folder) ?? $0.lastPathComponent) })
        }
        let served = server.engine.servedCassetteNames(under: folder)
        return CassetteJSON.sortedObject(["served": .array(served.map { .string($0) }), "available": available])
    }

    /// `{"rules": "status=503; reset", "seed": N}` (rules as `MOCKSERVER_FAULTS` takes them), or
    /// `{"rules": null, "seed": null}` when no plan is in force.
    static func plan(_ plan: FaultPlan?) -> CassetteJSON {
        guard let plan else { return CassetteJSON.sortedObject(["rules": .null, "seed": .null]) }
        return CassetteJSON.sortedObject([
            "rules": .string(plan.rules.map(\.description).joined(separator: "; ")),
            "seed": .number(JSONNumber(trustedLiteral: String(plan.seed))),
        ])
    }

    /// Why `request` may not call the API, or `nil` when it may.
    private func refusal(of request: HTTPRequest, from address: String) -> String? {
        if let expectedAuthorization {
            guard request.headers["Authorization"] == expectedAuthorization else {
                return "the control API needs the server's token, as the header Authorization: Bearer TOKEN."
            }
            return nil
        }
        guard Self.isLoopback(address) else {
            return "the control API answers only clients on loopback unless the server has a control token; \(address) is not on loopback."
        }
        return nil
    }

    /// Why `request`, when it would change the server's state (any method but GET, HEAD and OPTIONS), is
    /// refused as sent by a web page of another origin, or `nil` when it is not: its `Origin` is present and
    /// names another authority than its `Host`, or its `Sec-Fetch-Site` is present and says another origin
    /// (`same-site`, such as a page on another port; `cross-site` never gets here, see ``ControlHandler``; a
    /// browser sends `same-origin` for the journal page's own writes, `none` for what its user typed). A browser sends a cross-site form or `text/plain` POST without asking first,
    /// so only this check keeps a page from resetting the journal or changing the faults; clients that are no
    /// page (curl, SDKs, tests) send neither header.
    static func crossSiteRefusal(of request: HTTPRequest) -> String? {
        switch request.method {
        case "GET", "HEAD", "OPTIONS": return nil
        default: break
        }
        let headers = request.headers
        let what = "\(request.method) \(request.path)"
        let fix = "send it from the journal page itself, or from a client that is no web page (curl, a test), which sends no Origin"
        if let site = headers["Sec-Fetch-Site"]?.lowercased(), site != "same-origin", site != "none" {
            return
                "the control API refuses \(what) from a web page of another origin (Sec-Fetch-Site: \(site)), so that no page can change a running server; \(fix)."
        }
        guard let origin = headers["Origin"] else { return nil }
        if let host = headers["Host"], let authority = Self.authority(ofOrigin: origin), authority.caseInsensitiveEquals(host) {
            return nil
        }
        return "the control API refuses \(what) from the origin \(origin), which is not its own, so that no web page can change a running server; \(fix)."
    }

    /// The authority of an `http` or `https` origin (`http://127.0.0.1:8080` gives `127.0.0.1:8080`), or `nil`
    /// for any other origin (`null`, another scheme, a path).
    private static func authority(ofOrigin origin: String) -> String? {
        for scheme in ["http://", "https://"] where origin.utf8.count > scheme.utf8.count {
            let head = origin.prefix(scheme.count)
            guard String(head).caseInsensitiveEquals(scheme) else { continue }
            let authority = origin.dropFirst(scheme.count)
            return authority.contains("/") ? nil : String(authority)
        }
        return nil
    }

    /// Whether `address`, numeric as the server reports peers (or `localhost`), is a loopback address.
    static func isLoopback(_ address: String) -> Bool {
        let lowered = address.lowercased()
        let v4 = lowered.hasPrefix("::ffff:") ? String(lowered.dropFirst("::ffff:".count)) : lowered
        return v4.hasPrefix("127.") || lowered == "::1" || lowered == "localhost"
    }

    // MARK: - Answers

    /// `{"entries": [...], "next": N, "dropped": N}`: the kept entries whose sequence number is `since` or more,
    /// oldest first; `next` is the `since` that gives only what comes after them.
    private func journal(of server: any ControlledServer, since: Int) -> CassetteJSON {
        let journal = server.journal
        let entries = journal.entries.filter { $0.sequence >= since }
        return CassetteJSON.sortedObject([
            "entries": .array(entries.map { ControlJSON.entry($0, redaction: redaction) }),
            "next": .number(JSONNumber(entries.last.map { $0.sequence + 1 } ?? since)),
            "dropped": .number(JSONNumber(journal.droppedCount)),
        ])
    }

    /// `{"unmatched": [...], "count": N}`: the near misses kept (the first 100) and how many there were.
    private func unmatched(of server: any ControlledServer) -> CassetteJSON {
        let (kept, count) = server.unmatched.snapshot
        return CassetteJSON.sortedObject([
            "unmatched": .array(kept.map { ControlJSON.nearMiss($0, redaction: redaction) }),
            "count": .number(JSONNumber(count)),
        ])
    }

    /// `{"unused": [...], "total": N}`: the interactions no request used, of `total`.
    private static func unused(of server: any ControlledServer) -> CassetteJSON {
        let interactions = server.engine.interactions
        let unused = server.journal.unusedInteractions(among: interactions)
        return CassetteJSON.sortedObject([
            "unused": .array(unused.map(\.json)),
            "total": .number(JSONNumber(interactions.count)),
        ])
    }

    /// `value` as pretty-printed JSON with `status`, and `headers` besides the usual ones.
    static func json(_ value: CassetteJSON, status: Int = 200, headers: [(String, String)] = []) -> HTTPReply {
        let body = value.serialized(pretty: true) + Data("\n".utf8)
        let usual = [("Content-Type", "application/json; charset=utf-8"), ("Cache-Control", "no-store"), ("Content-Length", String(body.count))]
        return .response(status: status, headers: HTTPHeaders(pairs: usual + headers), body: body)
    }

    /// `text` ending with a full stop, as the error sentences of this API do.
    static func sentence(_ text: String) -> String {
        text.hasSuffix(".") ? text : text + "."
    }

    /// `{"error": sentence}` with `status`.
    static func error(_ status: Int, _ sentence: String, headers: [(String, String)] = []) -> HTTPReply {
        json(CassetteJSON.sortedObject(["error": .string(sentence)]), status: status, headers: headers)
    }

    private static func methodNotAllowed(_ request: HTTPRequest, allowed: String) -> HTTPReply {
        error(405, "\(request.path) takes \(allowed), not \(request.method).", headers: [("Allow", allowed)])
    }
}
