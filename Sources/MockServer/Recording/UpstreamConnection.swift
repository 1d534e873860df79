import Foundation

/// A TCP connection to an `http://` upstream, confined to one event loop. It carries one exchange at a
/// time and, between exchanges, waits in its ``UpstreamPool`` for the next (HTTP keep-alive). The exchange's
/// deadline is its timer on the loop.
final class UpstreamConnection: LoopDescriptorDelegate, @unchecked Sendable {
    /// What the loop watches; it holds this connection until ``close()``.
    let descriptor: DelegatedDescriptor
    let client: LoopUpstreamClient
    private let pool: UpstreamPool
    /// Strong, like a client connection's (see ``Listener``).
    private let loop: EventLoop
    private(set) var exchange: UpstreamExchange?
    private var connected = false
    /// Carried an exchange before: the upstream may have closed it meanwhile.
    private var reused = false
    private var watchesWrite = true
    private var closed = false

    init(fd: Int32, client: LoopUpstreamClient, pool: UpstreamPool) {
        self.client = client
        self.pool = pool
        loop = pool.loop
        descriptor = DelegatedDescriptor(fd: fd)
        descriptor.delegate = self
    }

    /// Starts `exchange` (loop thread only): writes the request now when connected, else once connected.
    func begin(_ exchange: UpstreamExchange) {
        self.exchange = exchange
        armTimer(exchange)
        if connected { writeRequest() }
    }

    var fd: Int32 { descriptor.fd }

    func handle(_ event: PollerEvent) {
        guard !closed else { return }
        if !connected {
            let code = Sys.pendingError(fd)
            guard code == 0 else {
                fail(client.connectFailure(code), unreachable: true)
                return
            }
            connected = true
        }
        guard let exchange else {
            // Idle: readiness means the upstream closed the connection (or sent what nobody asked for).
            close()
            return
        }
        if exchange.written < exchange.request.count {
            writeRequest()
        } else if event.readable || event.hangup {
            readResponse()
        }
    }

    private func writeRequest() {
        guard let exchange else { return }
        while exchange.written < exchange.request.count {
            let outcome = exchange.request.withUnsafeBytes { raw in
                Sys.send(fd, from: raw.baseAddress! + exchange.written, count: raw.count - exchange.written)
            }
            switch outcome {
            case .moved(let count):
                exchange.written += count
                exchange.deadline = loop.now &+ exchange.timeout
            case .wouldBlock:
                watch(write: true)
                return
            case .failed(let code):
                lost("The connection to \(client.upstreamDescription) failed while sending the request: \(Sys.describe(code)).")
                return
            case .endOfFile:
                return
            }
        }
        watch(write: false)
    }

    private func readResponse() {
        // Up to 16 reads per readiness report, so that one busy upstream cannot hold the loop.
        for _ in 0..<16 {
            guard let exchange else { return }
            let outcome = withUnsafeTemporaryAllocation(byteCount: 16 * 1024, alignment: 1) { scratch -> IOOutcome in
                let outcome = Sys.receive(fd, into: scratch.baseAddress!, count: scratch.count)
                if case .moved(let count) = outcome {
                    exchange.reader.append(UnsafeRawBufferPointer(rebasing: scratch[..<count]))
                }
                return outcome
            }
            switch outcome {
            case .moved:
                // Bytes keep coming: a slow body is not a silent upstream. A later deadline costs no timer operation (see armTimer).
                exchange.deadline = loop.now &+ exchange.timeout
                advance()
            case .wouldBlock:
                return
            case .endOfFile:
                exchange.reader.endOfInput()
                if !exchange.reader.receivedAny {
                    lost("The upstream \(client.upstreamDescription) closed the connection without answering.")
                    return
                }
                advance()  // ends the exchange: the end of input completes the answer or cuts it
                return
            case .failed(let code):
                lost("The connection to \(client.upstreamDescription) failed: \(Sys.describe(code)).")
                return
            }
        }
    }

    /// Takes every step the bytes so far allow: the head (and whether the body streams), body pieces, the end.
    private func advance() {
        while let exchange {
            let step: UpstreamResponseReader.Step
            do {
                step = try exchange.reader.next()
            } catch {
                fail(.reset, error.message)
                return
            }
            switch step {
            case .needsMore:
                return
            case .head(let head):
                exchange.head = head
                decide(exchange, head)
            case .body(let piece):
                guard let sink = exchange.sink else {
                    exchange.body.append(piece)
                    exchange.observer?(piece)
                    continue
                }
                do {
                    let plain = try exchange.decoder?.add(piece) ?? piece
                    if !plain.isEmpty { sink(plain) }
                } catch {
                    fail(.reset, error.reason)
                    return
                }
            case .end(let reusable):
                guard let head = exchange.head else { return }  // the reader ends only after a head
                do {
                    try exchange.decoder?.finish()
                } catch {
                    fail(.reset, error.reason)
                    return
                }
                self.exchange = nil
                loop.timers.remove(descriptor)
                exchange.end(.response(LoopUpstreamAnswer(head: head, body: exchange.body, streamed: exchange.sink != nil)))
                if reusable, !client.isInvalidated {
                    reused = true
                    pool.park(self)
                } else {
                    close()
                }
                return
            }
        }
    }

    /// Asks the exchange's decision, once the head arrived, whether the body streams.
    private func decide(_ exchange: UpstreamExchange, _ head: UpstreamResponseHead) {
        guard let decision = exchange.decision else { return }
        exchange.decision = nil
        let coding = head.headers.values(for: "Content-Encoding").joined(separator: ",")
        var decoder: StreamingContentDecoder?
        if !coding.isEmpty {
            // A body in a coding not decoded as it arrives is collected whole, to be decoded or kept at its end.
            guard let streaming = StreamingContentDecoder(contentEncoding: coding) else { return }
            decoder = streaming
        }
        let id = exchange.id
        let fields = head.headers.lines.map { (name: $0.name, value: $0.value) }
        let route = decision(head.status, fields) { [weak self, loop] in
            guard let self else { return }
            loop.execute { self.cancel(id) }
        }
        switch route {
        case .stream(let sink)?:
            exchange.sink = sink
            exchange.decoder = decoder
            if client.streamsCancelled { cancel(id) }
        case .collect(let observer)?:
            exchange.observer = observer
        case nil:
            break
        }
    }

    /// Cuts the exchange `id` if this connection still carries it (loop thread only), after taking what the
    /// upstream already sent: its end may be among it.
    func cancel(_ id: UInt64) {
        guard exchange?.id == id else { return }
        if connected, exchange.map({ $0.written >= $0.request.count }) == true { readResponse() }
        guard exchange?.id == id else { return }
        fail(.reset, "The exchange with \(client.upstreamDescription) was cancelled.")
    }

    /// Makes sure the loop wakes the connection by `exchange`'s deadline. A later deadline (each piece of a
    /// streamed body sets one) keeps the earlier wake-up, which then finds nothing due and waits again: a
    /// streamed piece costs no heap operation.
    private func armTimer(_ exchange: UpstreamExchange) {
        guard descriptor.timerSlot < 0 || exchange.deadline < descriptor.scheduledWake else { return }
        loop.timers.schedule(descriptor, at: exchange.deadline)
    }

    /// Fails the exchange as timed out if its deadline passed, else waits for the deadline, which moved later.
    func timerFired() {
        guard let exchange else { return }
        guard exchange.deadline <= loop.now else {
            armTimer(exchange)
            return
        }
        fail(.timeout, "The upstream \(client.upstreamDescription) sent nothing for \(exchange.timeout / 1_000_000) ms.")
    }

    /// A kept-alive connection that turns out closed before any byte of the answer arrived is the usual race
    /// with the upstream's idle timeout, not the upstream's answer: the request goes again on a new one, once.
    /// Otherwise a connection lost before any byte of the answer means the upstream was not reached (a port
    /// forwarder with nothing behind it accepts, then closes); lost after some, that it broke.
    private func lost(_ message: String) {
        guard let exchange, reused, !exchange.retried, !exchange.reader.receivedAny else {
            fail(TransportFailure(kind: .reset, message: message), unreachable: self.exchange.map { !$0.reader.receivedAny } ?? false)
            return
        }
        self.exchange = nil
        close()
        exchange.restart()
        pool.start(exchange, for: client)
    }

    private func fail(_ kind: TransportFailure.Kind, _ message: String) {
        fail(TransportFailure(kind: kind, message: message))
    }

    /// Ends the exchange with `failure`: as the upstream's own when it was reached, else as ``UpstreamOutcome/unreachable(_:)``.
    private func fail(_ failure: TransportFailure, unreachable: Bool = false) {
        let exchange = self.exchange
        self.exchange = nil
        close()
        exchange?.end(unreachable ? .unreachable(failure) : .failure(failure))
    }

    private func watch(write: Bool) {
        guard write != watchesWrite else { return }
        watchesWrite = write
        loop.poller.modify(fd, interest: write ? [.read, .write] : .read)
    }

    /// Closes the connection and forgets it (loop thread only); an exchange still on it is dropped unreported.
    func close() {
        guard !closed else { return }
        closed = true
        exchange = nil
        pool.forget(self)
        loop.forgetClosing(descriptor)
        Sys.close(fd)
        descriptor.delegate = nil
    }
}
