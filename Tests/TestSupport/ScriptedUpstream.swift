import Foundation
import ServiceReplayShared
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An upstream on loopback whose answer the test writes byte for byte, piece by piece, when it chooses: for
/// answers MockServer's own server never gives, such as a head with `Content-Length` and then a body that
/// comes slowly. It accepts one connection, reads the request's head, then writes each piece handed to
/// ``send(_:)`` in order, until ``hangUp()``. Every wait on its thread is bounded (a minute), so a test that
/// fails cannot hang on it.
package final class ScriptedUpstream: Sendable {
    private enum Step: Sendable {
        case write(Data)
        case hangUp
    }

    /// The port it listens on.
    package let port: UInt16
    /// `http://127.0.0.1:PORT`.
    package var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }
    private let steps = Lock<[Step]>([])
    /// Signalled once per step handed over.
    private let handedOver = DispatchSemaphore(value: 0)

    /// Listens on an ephemeral loopback port; throws when the socket calls fail.
    package init() throws {
        let listener = TestSocket.makeTCP()
        guard listener >= 0 else { throw Failure(description: "socket() failed: errno \(errno)") }
        guard let port = TestSocket.bindLoopback(listener), listen(listener, 1) == 0 else {
            let code = errno
            close(listener)
            throw Failure(description: "cannot listen on loopback: errno \(code)")
        }
        self.port = port
        Thread.detachNewThread { [steps, handedOver] in
            Self.serve(listener, steps: steps, handedOver: handedOver)
        }
    }

    /// Writes `bytes` once the request's head has arrived and the pieces before them were written.
    package func send(_ bytes: Data) {
        steps.withLock { $0.append(.write(bytes)) }
        handedOver.signal()
    }

    /// Writes `text` as UTF-8 (see ``send(_:)``).
    package func send(_ text: String) {
        send(Data(text.utf8))
    }

    /// Closes the connection after the pieces handed over, and stops listening.
    package func hangUp() {
        steps.withLock { $0.append(.hangUp) }
        handedOver.signal()
    }

    /// Why the upstream could not start.
    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    /// The upstream's thread: one connection, its request's head, then the steps as they are handed over.
    private static func serve(_ listener: Int32, steps: Lock<[Step]>, handedOver: DispatchSemaphore) {
        defer { close(listener) }
        let connection = TestSocket.acceptConnection(listener, waitingAtMost: 60_000)
        guard connection >= 0 else { return }
        defer { close(connection) }
        var timeout = timeval(tv_sec: 60, tv_usec: 0)
        _ = setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        // The request's head, byte by byte (it is short): the answer must not come before the request.
        var head: [UInt8] = []
        var byte: UInt8 = 0
        while !head.ends(with: Array("\r\n\r\n".utf8)) {
            guard head.count < 64 * 1024, recv(connection, &byte, 1, 0) == 1 else { return }
            head.append(byte)
        }
        while handedOver.wait(timeout: .now() + 60) == .success {
            let step = steps.withLock { $0.removeFirst() }
            guard case .write(let bytes) = step else { return }
            let sent = bytes.withUnsafeBytes { TestSocket.send(connection, $0.baseAddress, $0.count) }
            guard sent == bytes.count else { return }
        }
    }
}

extension Array where Element == UInt8 {
    fileprivate func ends(with suffix: [UInt8]) -> Bool {
        count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix
    }
}
