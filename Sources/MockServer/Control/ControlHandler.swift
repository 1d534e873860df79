import ServiceReplayShared

/// The handler in front of a server's own, replay or recording. It first refuses, before anything is matched,
/// forwarded, faulted or journaled, a request whose `Host` the server does not answer (``HostCheck``), with 421,
/// and one a browser marks as sent by a page of another site (`Sec-Fetch-Site: cross-site`), or a WebSocket upgrade
/// whose `Origin` is a page of a name the server does not answer, with 403, each
/// with one sentence: such a page cannot read the answer, but its request would still move a sequence, count
/// towards a fault's trigger or reach the upstream. Then a request under ``ControlAPI/prefix`` is the control
/// API's, answered here and never matched, recorded, faulted or put in the journal; so is a loopback request that
/// carries the token of a reply already decided for it in the client's process (``HandedOverReplies``). Every
/// other request goes on unchanged.
final class ControlHandler: HTTPHandler {
    let api: ControlAPI
    let inner: any HTTPHandler
    let hosts: HostCheck
    /// Replies decided in-process that wait for their loopback request.
    let handedOver: HandedOverReplies
    /// Told of each refused `Host`, as of the requests the wire rejects.
    let onRejection: (@Sendable (RejectedRequest) -> Void)?

    init(
        api: ControlAPI, inner: any HTTPHandler, hosts: HostCheck, handedOver: HandedOverReplies,
        onRejection: (@Sendable (RejectedRequest) -> Void)?
    ) {
        self.api = api
        self.inner = inner
        self.hosts = hosts
        self.handedOver = handedOver
        self.onRejection = onRejection
    }

    func admission(for connection: HTTPConnectionInfo) -> HTTPAdmission {
        inner.admission(for: connection)
    }

    func reply(to request: HTTPRequest, context: HTTPRequestContext) -> HTTPReply {
        // Every field in one pass over the header lines (each the first of its name, as the subscript gives it):
        // this runs for every request.
        var host: String?
        var site: String?
        var replyToken: String?
        var origin: String?
        for line in request.headers.lines {
            if host == nil, line.name.caseInsensitiveEquals("Host") {
                host = line.value
            } else if site == nil, line.name.caseInsensitiveEquals("Sec-Fetch-Site") {
                site = line.value
            } else if replyToken == nil, line.name.caseInsensitiveEquals(HostRouter.replyHeader) {
                replyToken = line.value
            } else if origin == nil, line.name.caseInsensitiveEquals("Origin") {
                origin = line.value
            }
        }
        guard hosts.admits(host) else { return refusal(of: request, host: host ?? "") }
        if let site, site.caseInsensitiveEquals("cross-site") { return crossSiteRefusal(of: request) }
        // A WebSocket is not bound by CORS: a page of any site may open one and read it. Browsers always send the
        // page's Origin with the upgrade (and not every one sends Sec-Fetch-Site), so that is what decides; a routed
        // app's socket carries the host it meant, a header no page can set on a WebSocket.
        if let origin, !admitsOrigin(origin), WebSocketHandshake.isUpgrade(request), request.headers[HostRouter.hostHeader] == nil {
            return crossSiteRefusal(of: request, origin: origin)
        }
        if let replyToken {
            return handedOver.take(replyToken)
                ?? ControlAPI.error(400, "no reply waits for the token in \(HostRouter.replyHeader); the server stopped since, or it was used already.")
        }
        guard ControlAPI.isControlRequest(request) else { return inner.reply(to: request, context: context) }
        return api.reply(to: request, context: context)
    }

    /// 421 Misdirected Request: a status no recorded API answers, so a test that meets it cannot mistake it
    /// for the API's own refusal.
    private func refusal(of request: HTTPRequest, host: String) -> HTTPReply {
        let name = HostCheck.name(inAuthority: host).map(String.init) ?? host
        let sentence =
            "this server answers only requests addressed to a loopback name (127.0.0.1, localhost, [::1]) or a name allowed on purpose, "
            + "not to the Host '\(host)', so that a web page cannot reach it by rebinding its name to this machine; "
            + "to allow it, pass --allow-host \(name) to recorder, or add it to CassetteServer.Configuration.allowedHosts."
        onRejection?(RejectedRequest(status: 421, reason: sentence, request: "\(request.method) \(request.path)"))
        return ControlAPI.error(421, sentence)
    }

    /// Whether a WebSocket upgrade's `Origin` is a page this server answers: one served from a name its `Host`
    /// check admits (loopback, or a name allowed on purpose); `null` (a file, a sandboxed frame) is not.
    private func admitsOrigin(_ origin: String) -> Bool {
        guard let schemeEnd = origin.range(of: "://") else { return false }
        return hosts.admits(String(origin[schemeEnd.upperBound...]))
    }

    /// 403 for a request a page of another site sent (a link followed from another site is one too), or a
    /// WebSocket a page of another `origin` opened.
    private func crossSiteRefusal(of request: HTTPRequest, origin: String? = nil) -> HTTPReply {
        let from = origin.map { "from a web page of \($0) (a WebSocket)" } ?? "from a web page of another site (Sec-Fetch-Site: cross-site)"
        let sentence =
            "this server refuses \(request.method) \(request.path) \(from), so that no page "
            + "in a browser can change what it replays or send requests through it; send it from a client that is no web page (curl, a test, the app), or type the address."
        onRejection?(RejectedRequest(status: 403, reason: sentence, request: "\(request.method) \(request.path)"))
        return ControlAPI.error(403, sentence)
    }
}
