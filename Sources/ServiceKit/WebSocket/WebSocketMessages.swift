import Foundation

/// The messages of one ``WebSocketConnection``, typed by its service, as the server sends them:
///
/// ```swift
/// for try await message in chat.messages {
///     print(message.text)
/// }
/// ```
///
/// Every iterator reads the same connection: a message goes to one of them. The sequence ends (returns `nil`)
/// when the server closes with code 1000 or 1001 (and ``WebSocketService/serviceError(for:)`` finds no error in
/// it), or after ``WebSocketConnection/close(code:reason:)``. Failures are thrown as a ``WebServiceError`` after
/// the messages already delivered, and end the iteration:
/// - service-level when the server closes with a code the service reads as an application error (by default
///   4000–4999, as `.errorPayload(code: "4001", message: reason)`), and when a message cannot be mapped
///   (`.undecodableBody`, `.missingField`, `.invalidField`). The latter leaves the connection open: iterate
///   ``WebSocketConnection/messages`` again to read on, or close it;
/// - `.network(.connectionLost)` when the connection drops, or the server closes with any other code (1006,
///   1011, 1002, ...); the close frame is the error's ``WebServiceError/underlyingError``;
/// - `.network(.cancelled)` when the iterating task is cancelled, which also closes the connection with
///   ``WebSocketCloseCode/goingAway``.
public struct WebSocketMessages<Service: WebSocketService>: AsyncSequence, Sendable {
    /// One mapped message.
    public typealias Element = Service.Incoming
    /// Only ``WebServiceError`` is thrown.
    public typealias Failure = WebServiceError

    let connection: WebSocketConnection<Service>

    /// An iterator reading the connection on demand.
    public func makeAsyncIterator() -> Iterator {
        Iterator(connection: connection)
    }

    /// Reads the connection on demand.
    public struct Iterator: AsyncIteratorProtocol {
        /// Only ``WebServiceError`` is thrown.
        public typealias Failure = WebServiceError

        let connection: WebSocketConnection<Service>
        private var isFinished = false

        init(connection: WebSocketConnection<Service>) {
            self.connection = connection
        }

        /// The next message, or `nil` once the sequence ended.
        ///
        /// - Throws: ``WebServiceError`` as ``WebSocketMessages`` describes; after a throw this iterator is over.
        public mutating func next() async throws(WebServiceError) -> Service.Incoming? {
            while !isFinished {
                let event = try await receive()
                switch event {
                case .message(let message):
                    if let value = try map(message) {
                        return value
                    }
                case .close(let frame):
                    isFinished = true
                    if let failure = connection.service.serviceError(for: frame) {
                        throw .service(failure, underlyingError: frame)
                    }
                    if frame.code == .normalClosure || frame.code == .goingAway {
                        return nil
                    }
                    throw .network(.connectionLost, underlyingError: frame)
                case nil:
                    isFinished = true
                }
            }
            return nil
        }

        /// The next event; `nil` when the app closed the connection. Cancelling the task closes the connection,
        /// which ends a receive under way.
        private mutating func receive() async throws(WebServiceError) -> WebSocketEvent? {
            let connection = self.connection
            if Task.isCancelled {
                connection.close(code: .goingAway)
                isFinished = true
                throw .network(.cancelled)
            }
            if connection.isClosedLocally { return nil }
            do {
                let event = try await withTaskCancellationHandler {
                    try await connection.connection.receive()
                } onCancel: {
                    connection.close(code: .goingAway)
                }
                if Task.isCancelled {
                    isFinished = true
                    throw WebServiceError.network(.cancelled)
                }
                return connection.isClosedLocally ? nil : event
            } catch let error as WebServiceError {
                throw error
            } catch {
                isFinished = true
                if Task.isCancelled { throw .network(.cancelled, underlyingError: error) }
                if connection.isClosedLocally { return nil }
                throw .network(connection.brokenConnectionFailure(error), underlyingError: error)
            }
        }

        /// The service's value for `message`, `nil` to skip it; a failure ends this iteration, not the connection.
        private mutating func map(_ message: WebSocketMessage) throws(WebServiceError) -> Service.Incoming? {
            do {
                return try connection.service.incoming(from: message)
            } catch let error as WebServiceError {
                isFinished = true
                throw error
            } catch {
                isFinished = true
                throw .service(.undecodableBody, underlyingError: error)
            }
        }
    }
}
