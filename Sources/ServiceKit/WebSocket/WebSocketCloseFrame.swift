/// A WebSocket close code (RFC 6455, section 7.4): an open set, so that the codes an API defines for itself
/// (4000–4999) fit as well as the standard ones. Write an API's own code as a literal: `4001`.
public struct WebSocketCloseCode: RawRepresentable, Hashable, Sendable, ExpressibleByIntegerLiteral, CustomStringConvertible {
    /// The code's number.
    public let rawValue: Int

    /// The code `rawValue`, as it is: nothing is checked.
    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// The code `value`.
    public init(integerLiteral value: Int) {
        self.init(rawValue: value)
    }

    /// 1000: the purpose of the connection was fulfilled.
    public static let normalClosure: WebSocketCloseCode = 1000
    /// 1001: an endpoint is going away (a server shutting down, a client leaving the screen).
    public static let goingAway: WebSocketCloseCode = 1001
    /// 1002: an endpoint saw a protocol error.
    public static let protocolError: WebSocketCloseCode = 1002
    /// 1003: an endpoint received a type of data it cannot accept.
    public static let unsupportedData: WebSocketCloseCode = 1003
    /// 1005: the close frame carried no code (never sent; reported when a close frame has none).
    public static let noStatusReceived: WebSocketCloseCode = 1005
    /// 1006: the connection dropped without a close frame (never sent; reported for a drop).
    public static let abnormalClosure: WebSocketCloseCode = 1006
    /// 1007: a message's data did not match its type (text that is not UTF-8, say).
    public static let invalidFramePayloadData: WebSocketCloseCode = 1007
    /// 1008: a message broke the endpoint's policy.
    public static let policyViolation: WebSocketCloseCode = 1008
    /// 1009: a message was too big to process.
    public static let messageTooBig: WebSocketCloseCode = 1009
    /// 1010: the server did not negotiate an extension the client requires.
    public static let mandatoryExtensionMissing: WebSocketCloseCode = 1010
    /// 1011: the server met an unexpected condition.
    public static let internalServerError: WebSocketCloseCode = 1011

    /// Whether the code is one an application defines for itself (4000–4999, RFC 6455's private range):
    /// what ``WebSocketService/serviceError(for:)`` reads as service-level by default.
    public var isApplicationDefined: Bool { (4000...4999).contains(rawValue) }

    /// The number, as written in the RFC.
    public var description: String { String(rawValue) }
}

/// The close frame that ended a WebSocket connection: its code and its reason.
///
/// It is also the ``WebServiceError/underlyingError`` of the error a close caused, so that a caller can read the
/// code of a network-level close: `(error.underlyingError as? WebSocketCloseFrame)?.code`.
public struct WebSocketCloseFrame: Error, Hashable, Sendable, CustomStringConvertible {
    /// The close code.
    public var code: WebSocketCloseCode
    /// The reason the peer gave, `""` when it gave none.
    public var reason: String

    /// A close frame; `reason` defaults to none.
    public init(code: WebSocketCloseCode, reason: String = "") {
        self.code = code
        self.reason = reason
    }

    /// The code and the reason, for logs: `close 4001 "room is full"`.
    public var description: String {
        reason.isEmpty ? "close \(code)" : "close \(code) \"\(reason)\""
    }

    /// The longest reason a close frame carries, in bytes of UTF-8: a control frame's payload is at most 125
    /// bytes, two of which hold the code.
    public static let maximumReasonLength = 123

    /// This frame with its reason cut to ``maximumReasonLength`` bytes of UTF-8, on a character boundary.
    var fitted: WebSocketCloseFrame {
        guard reason.utf8.count > Self.maximumReasonLength else { return self }
        var cut = ""
        for character in reason {
            guard cut.utf8.count + String(character).utf8.count <= Self.maximumReasonLength else { break }
            cut.append(character)
        }
        return WebSocketCloseFrame(code: code, reason: cut)
    }
}
