// Requests as any client or web page may send them to a server, control API included: whatever the
// method, target, headers and body, the handler in front never crashes; a Host the server does not answer gets
// 421 and changes nothing; any request a browser marks cross-site, and a write under /__mockserver/ sent by a
// page of another origin, gets 403 and changes nothing. Both rules are checked against a model written here, not against the code that applies them.
//
// The input is text: a request line `METHOD TARGET`, header lines `Name: value`, a blank line, then the body.
import Foundation
@testable import MockServer
@testable import MockServerWire

private let context = HTTPRequestContext(connection: HTTPConnectionInfo(id: 1, remoteAddress: "127.0.0.1", remotePort: 50000), requestIndex: 0)

/// A server with a fault plan in force and one request journaled, made anew for each input (LeakSanitizer
/// would take what a long-lived server keeps for leaks), with its front handler built here because the server
/// keeps its own private.
private func makeServer() -> (CassetteServer, ControlHandler) {
    let cassette = Cassette(
        name: "shop",
        interactions: [.stub("GET", "/items", json: ["items": [1]]), .stub("POST", "/items", status: 201, json: ["id": 1])])
    var configuration = CassetteServer.Configuration(faults: .plan(try! FaultPlan.parse(specs: "status=503,path=/nothing")), journalCapacity: 64)
    configuration.allowedHosts = ["mockserver"]
    let server = try! CassetteServer(cassettes: [cassette], configuration: configuration)
    let api = ControlAPI(token: nil, redaction: .default)
    api.steer(server)
    let front = ControlHandler(
        api: api, inner: server.handler, hosts: try! HostCheck(allowing: ["mockserver"]), handedOver: HandedOverReplies(), onRejection: nil)
    _ = front.reply(to: HTTPRequest(method: "GET", target: "/items", headers: ["Host": "127.0.0.1"]), context: context)
    return (server, front)
}

/// What a refused request must leave as it was.
private struct State: Equatable {
    let plan: String?
    let journaled: Int
    let unmatched: Int
    let served: [String]

    init(of server: CassetteServer) {
        plan = server.faultPlan?.description
        journaled = server.journal.recordedCount
        unmatched = server.unmatched.snapshot.count
        served = server.engine.servedCassetteNames
    }
}

/// The model of the Host rule: loopback names, names allowed (here `mockserver`), any port, no Host at all.
private func modelAnswers(host: String?) -> Bool {
    guard let host, !host.isEmpty else { return true }
    let lower = host.lowercased()
    let name: Substring
    let rest: Substring
    if lower.hasPrefix("[") {
        guard let close = lower.firstIndex(of: "]") else { return false }
        name = lower[...close]
        rest = lower[lower.index(after: close)...]
    } else if let colon = lower.firstIndex(of: ":") {
        name = lower[..<colon]
        rest = lower[colon...]
    } else {
        name = lower[...]
        rest = ""
    }
    guard rest.isEmpty || (rest.first == ":" && rest.dropFirst().allSatisfy { ("0"..."9").contains($0) }) else { return false }
    if name == "localhost" || name == "[::1]" || name == "mockserver" || (name.hasSuffix(".localhost") && name.count > 10) { return true }
    let octets = name.split(separator: ".", omittingEmptySubsequences: false)
    return octets.count == 4 && octets[0] == "127"
        && octets.allSatisfy { $0.count >= 1 && $0.count <= 3 && $0.allSatisfy { ("0"..."9").contains($0) } && Int($0)! <= 255 }
}

/// The model of the Origin rule: a write under the control prefix, not routed from an app, whose
/// Sec-Fetch-Site names another origin or whose Origin is not `http(s)://` followed by its Host.
private func modelRefusesAsCrossSite(_ request: HTTPRequest) -> Bool {
    guard !["GET", "HEAD", "OPTIONS"].contains(request.method), request.headers["X-MockServer-Host"] == nil else { return false }
    let target = request.target
    guard target.hasPrefix("/__mockserver/") || target == "/__mockserver" || target.hasPrefix("/__mockserver?") else { return false }
    if let site = request.headers["Sec-Fetch-Site"]?.lowercased(), site != "same-origin", site != "none" { return true }
    guard let origin = request.headers["Origin"]?.lowercased() else { return false }
    guard let host = request.headers["Host"]?.lowercased() else { return true }
    return origin != "http://" + host && origin != "https://" + host
}

/// Builds the journal page (once per process) before the first input, so that it does not count as memory an
/// input leaked.
@_cdecl("LLVMFuzzerInitialize")
public func initializeControlRequest(
    _ argc: UnsafeMutablePointer<CInt>?, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>?
) -> CInt {
    _ = JournalPage.reply
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzControlRequest(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let text = FuzzInput(start, count).text
    let parts = text.split(separator: "\n\n", maxSplits: 1, omittingEmptySubsequences: false)
    var lines = parts[0].split(separator: "\n", omittingEmptySubsequences: false)
    let requestLine = lines.isEmpty ? [] : lines.removeFirst().split(separator: " ", maxSplits: 1)
    var headers = HTTPHeaders()
    for line in lines {
        guard let colon = line.firstIndex(of: ":") else { continue }
        headers.add(name: String(line[..<colon]), value: String(line[line.index(after: colon)...]).trimmingWhitespace())
    }
    let request = HTTPRequest(
        method: requestLine.first.map(String.init) ?? "GET", target: requestLine.count > 1 ? String(requestLine[1]) : "/__mockserver/",
        headers: headers, body: Data((parts.count > 1 ? parts[1] : "").utf8))

    let (server, front) = makeServer()
    let before = State(of: server)
    let reply = front.reply(to: request, context: context)
    var status: Int?
    switch reply.action {
    case .response(let response): status = response.status
    case .live(let stream): stream.cancel()
    default: break
    }
    if !modelAnswers(host: request.headers["Host"]) {
        require(status == 421, "\(request.method) \(request.target) with Host \(request.headers["Host"] ?? "-") got \(String(describing: status)), not 421")
        require(State(of: server) == before, "a refused Host changed the server")
    } else if request.headers["Sec-Fetch-Site"]?.lowercased() == "cross-site" {
        require(status == 403, "a cross-site \(request.method) \(request.target) got \(String(describing: status)), not 403")
        require(State(of: server) == before, "a cross-site request changed the server")
    } else if modelRefusesAsCrossSite(request) {
        require(status == 403, "a cross-site \(request.method) \(request.target) got \(String(describing: status)), not 403")
        require(State(of: server) == before, "a cross-site write changed the server")
    }
    return 0
}
