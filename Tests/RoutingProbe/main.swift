// routing-probe: a stand-in for an app under UI test. It calls `AppRouting.activate()` on its own launch
// environment (after making sessions first, given `--session-first` or `--shared-first`), then sends each
// request named by its other arguments and prints one line about each:
//
//   routing-probe 'shared http://api.example.test/x' 'default https://cdn.example.test/y' 'servicekit http://…'
//
//   activation: routed http://127.0.0.1:PORT       (or "off", or "refused: SENTENCE")
//   shared http://api.example.test/x -> 200 BASE64-BODY
//   default https://cdn.example.test/y -> error: SENTENCE
//
// `shared` goes through URLSession.shared, `default` through a session made from
// URLSessionConfiguration.default, `servicekit` through a ServiceKit URLSessionTransport. `cancel` goes through
// URLSession.shared and cancels the request on SIGUSR1, then prints its line and exits at the next SIGUSR1 (so
// that what the cancel closed is seen while the process lives). It fails closed: a
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

/// Writes `line` to standard output at once: unbuffered, so that a probe ended by a signal loses none.
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// One line for an error: its sentence when it has one.
func describe(_ error: any Error) -> String {
    let sentence = (error as NSError).userInfo[NSLocalizedDescriptionKey] as? String
    return "error: \(sentence ?? String(describing: error))"
}

/// Sends `request` through the shared session, cancels it when SIGUSR1 arrives, prints its line once it
/// ended, and exits at the next SIGUSR1 (or after a minute).
func sendAndCancelOnSignal(_ request: URLRequest, line: String) -> Never {
    let result = Line()
    let done = DispatchSemaphore(value: 0)
    let task = URLSession.shared.dataTask(with: request) { data, response, error in
        result.set(error.map(describe) ?? outcome(status: (response as? HTTPURLResponse)?.statusCode ?? -1, body: data ?? Data()))
        done.signal()
    }
    signal(SIGUSR1, SIG_IGN)
    let cancelling = DispatchSource.makeSignalSource(signal: SIGUSR1, queue: .global())
    let signals = Line()
    cancelling.setEventHandler {
        // The first signal cancels; the second ends the process (the handler runs on one queue, in order).
        if signals.value.isEmpty {
            signals.set("cancelled")
            task.cancel()
        } else {
            exit(0)
        }
    }
    cancelling.resume()
    task.resume()
    _ = done.wait(timeout: .now() + 60)
    say("\(line) \(result.value)")
    Thread.sleep(forTimeInterval: 60)
    exit(0)
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

// What an app may do before it activates routing: `--session-first` makes a session, `--shared-first` uses
// URLSession.shared (after that session, when both are given).
let options = Set(CommandLine.arguments.dropFirst().filter { $0.hasPrefix("--") })
var early: [URLSession] = []
if options.contains("--session-first") { early.append(URLSession(configuration: .ephemeral)) }
if options.contains("--shared-first") { _ = URLSession.shared.configuration }

do {
    if let server = try AppRouting.activate() {
        say("activation: routed \(server.absoluteString)")
    } else {
        say("activation: off")
    }
} catch {
    say("activation: refused: \(error.description)")
}

// `--check-exclusion`: whether a configuration the routing class was added to loses it again, as the loopback
// sessions' must (on Apple platforms their ephemeral configuration comes with it).
if options.contains("--check-exclusion") {
    let configuration = URLSessionConfiguration.ephemeral
    ProcessRouting.route(configuration)
    let added = configuration.protocolClasses?.count ?? 0
    ProcessRouting.exclude(from: configuration)
    say("exclusion: \(added) classes, then \(configuration.protocolClasses?.count ?? 0)")
}

let defaultSession = URLSession(configuration: .default)
let transport = URLSessionTransport()
// What URLSessionTransport does to the configuration of the session it makes, to tell whether it is routed.
let serviceKitLike = URLSessionConfiguration.ephemeral
ProcessRouting.route(serviceKitLike)
let serviceKitCheck = URLSession(configuration: serviceKitLike)
for argument in CommandLine.arguments.dropFirst() where !argument.hasPrefix("--") {
    let parts = argument.split(separator: " ", maxSplits: 1).map(String.init)
    guard parts.count == 2, let url = URL(string: parts[1]) else {
        say("\(argument) -> error: not 'KIND URL'")
        continue
    }
    let (kind, session): (String, URLSession?) =
        switch parts[0] {
        case "shared": ("shared", URLSession.shared)
        case "default": ("default", defaultSession)
        case "servicekit": ("servicekit", nil)
        case "cancel": ("cancel", URLSession.shared)
        default: (parts[0], nil)
        }
    let line = "\(kind) \(url.absoluteString) ->"
    var request = URLRequest(url: url, timeoutInterval: 30)
    request.httpMethod = "GET"
    let offMachine = url.host != "127.0.0.1"
    if kind == "servicekit" {
        guard !offMachine || AppRouting.routes(serviceKitCheck, for: url) else {
            say("\(line) refused: not routed, so not sent off this machine")
            continue
        }
        do {
            let response = try await transport.send(request, uploadProgress: nil)
            say("\(line) \(outcome(status: response.statusCode, body: response.body))")
        } catch {
            say("\(line) \(describe(error))")
        }
        continue
    }
    guard let session else {
        say("\(line) error: unknown kind '\(kind)'")
        continue
    }
    guard !offMachine || AppRouting.routes(session, for: url) else {
        say("\(line) refused: not routed, so not sent off this machine")
        continue
    }
    if kind == "cancel" {
        // Longer than the test waits for the cancel to close the connection: a timeout must not close it first.
        request.timeoutInterval = 300
        sendAndCancelOnSignal(request, line: line)
    }
    say("\(line) \(send(request, through: session))")
}
defaultSession.finishTasksAndInvalidate()
early.first?.finishTasksAndInvalidate()
serviceKitCheck.finishTasksAndInvalidate()
