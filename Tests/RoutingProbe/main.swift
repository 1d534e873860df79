// routing-probe: a stand-in for an app under UI test. It calls `AppRouting.activate()` on its own launch
// environment, then sends each request named by its arguments and prints one line about each:
//
//   routing-probe 'shared http://api.example.test/x' 'default https://cdn.example.test/y' 'servicekit http://…'
//
//   activation: routed http://127.0.0.1:PORT       (or "off", or "refused: SENTENCE")
//   shared http://api.example.test/x -> 200 BASE64-BODY
//   default https://cdn.example.test/y -> error: SENTENCE
//
// `shared` goes through URLSession.shared, `default` through a session made from
// URLSessionConfiguration.default, `servicekit` through a ServiceKit URLSessionTransport. It fails closed: a
// request to a host other than 127.0.0.1 is sent only through a session the routing reaches, so that no test
// ever sends traffic off the machine when routing missed it.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockServerAppRouting
import ServiceKit
import ServiceReplayShared

/// What one request came to, as printed after its arrow.
func outcome(status: Int, body: Data) -> String {
    "\(status) \(body.base64EncodedString())"
}

/// One line for an error: its sentence when it has one.
func describe(_ error: any Error) -> String {
    let sentence = (error as NSError).userInfo[NSLocalizedDescriptionKey] as? String
    return "error: \(sentence ?? String(describing: error))"
}

/// Sends `request` through `session` and waits for the outcome.
func send(_ request: URLRequest, through session: URLSession) -> String {
    let result = Line()
    let done = DispatchSemaphore(value: 0)
    session.dataTask(with: request) { data, response, error in
        if let error {
            result.set(describe(error))
        } else {
            result.set(outcome(status: (response as? HTTPURLResponse)?.statusCode ?? -1, body: data ?? Data()))
        }
        done.signal()
    }.resume()
    done.wait()
    return result.value
}

/// A line written by a completion handler and read after it signalled.
final class Line: @unchecked Sendable {
    private let lock = NSLock()
    private var line = ""
    func set(_ line: String) { lock.withLock { self.line = line } }
    var value: String { lock.withLock { line } }
}

do {
    if let server = try AppRouting.activate() {
        print("activation: routed \(server.absoluteString)")
    } else {
        print("activation: off")
    }
} catch {
    print("activation: refused: \(error.description)")
}

let defaultSession = URLSession(configuration: .default)
let transport = URLSessionTransport()
// What URLSessionTransport does to the configuration of the session it makes, to tell whether it is routed.
let serviceKitLike = URLSessionConfiguration.ephemeral
ProcessRouting.route(serviceKitLike)
let serviceKitCheck = URLSession(configuration: serviceKitLike)
for argument in CommandLine.arguments.dropFirst() {
    let parts = argument.split(separator: " ", maxSplits: 1).map(String.init)
    guard parts.count == 2, let url = URL(string: parts[1]) else {
        print("\(argument) -> error: not 'KIND URL'")
        continue
    }
    let (kind, session): (String, URLSession?) =
        switch parts[0] {
        case "shared": ("shared", URLSession.shared)
        case "default": ("default", defaultSession)
        case "servicekit": ("servicekit", nil)
        default: (parts[0], nil)
        }
    let line = "\(kind) \(url.absoluteString) ->"
    var request = URLRequest(url: url, timeoutInterval: 30)
    request.httpMethod = "GET"
    let offMachine = url.host != "127.0.0.1"
    if kind == "servicekit" {
        guard !offMachine || AppRouting.routes(serviceKitCheck, for: url) else {
            print("\(line) refused: not routed, so not sent off this machine")
            continue
        }
        do {
            let response = try await transport.send(request, uploadProgress: nil)
            print("\(line) \(outcome(status: response.statusCode, body: response.body))")
        } catch {
            print("\(line) \(describe(error))")
        }
        continue
    }
    guard let session else {
        print("\(line) error: unknown kind '\(kind)'")
        continue
    }
    guard !offMachine || AppRouting.routes(session, for: url) else {
        print("\(line) refused: not routed, so not sent off this machine")
        continue
    }
    print("\(line) \(send(request, through: session))")
}
defaultSession.finishTasksAndInvalidate()
serviceKitCheck.finishTasksAndInvalidate()
