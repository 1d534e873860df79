import Foundation

/// The body of a close frame (RFC 6455 §5.5.1, §7.4): a status code and a reason, or neither.
package struct WebSocketClose: Sendable, Hashable {
    /// The status code; `nil` for a close frame without a body (which the other side reports as 1005).
    package var code: UInt16?
    /// The reason, at most 123 bytes of UTF-8 on the wire (longer ones are cut at a character boundary when sent);
    /// empty when there is none, and always empty without a code.
    package var reason: String

    /// A close with `code` and `reason`.
    package init(code: UInt16?, reason: String = "") {
        self.code = code
        self.reason = reason
    }

    /// 1000: the purpose of the connection is fulfilled.
    package static let normal = WebSocketClose(code: 1000)
    /// 1002, with `reason`: the peer broke the protocol.
    package static func protocolError(_ reason: String) -> WebSocketClose { WebSocketClose(code: 1002, reason: reason) }
    /// 1007, with `reason`: a text message or close reason was not valid UTF-8.
    package static func invalidData(_ reason: String) -> WebSocketClose { WebSocketClose(code: 1007, reason: reason) }
    /// 1009, with `reason`: a frame or message was beyond the limits.
    package static func tooBig(_ reason: String) -> WebSocketClose { WebSocketClose(code: 1009, reason: reason) }

    /// The most bytes a reason may take: a control frame's 125 less the code's 2.
    package static let maxReasonBytes = 123

    /// Whether `code` may be sent in a close frame (RFC 6455 §7.4.1, IANA's registry): 1000-1003, 1007-1014 and the
    /// ranges 3000-4999 for libraries and applications. 1004-1006 and 1015 are reserved (never on the wire), other
    /// codes under 3000 are unassigned.
    package static func isSendable(_ code: UInt16) -> Bool {
        switch code {
        case 1000...1003, 1007...1014, 3000...4999: true
        default: false
        }
    }

    /// The close frame's payload: the code big-endian and the reason, cut to ``maxReasonBytes`` at a character
    /// boundary; empty without a code.
    package var payload: Data {
        guard let code else { return Data() }
        var bytes = Data([UInt8(code >> 8), UInt8(code & 0xFF)])
        var used = 0
        for character in reason {
            let utf8 = character.utf8
            guard used + utf8.count <= Self.maxReasonBytes else { break }
            bytes.append(contentsOf: utf8)
            used += utf8.count
        }
        return bytes
    }

    /// What a close frame's `payload` from a peer says: the close, or why it breaks the protocol (a body of one
    /// byte or with a code not ``isSendable(_:)``: 1002; a reason not valid UTF-8: 1007).
    package static func parse(_ payload: Data) -> Parsed {
        guard !payload.isEmpty else { return .close(WebSocketClose(code: nil)) }
        guard payload.count >= 2 else { return .refused(.protocolError("A close frame's body cannot be one byte.")) }
        let start = payload.startIndex
        let code = UInt16(payload[start]) << 8 | UInt16(payload[start + 1])
        guard isSendable(code) else { return .refused(.protocolError("The close code \(code) may not be sent.")) }
        guard let reason = String(validUTF8: payload.dropFirst(2)) else {
            return .refused(.invalidData("The close reason is not valid UTF-8."))
        }
        return .close(WebSocketClose(code: code, reason: reason))
    }

    /// The outcome of ``parse(_:)``.
    package enum Parsed: Sendable, Hashable {
        /// A well-formed close.
        case close(WebSocketClose)
        /// A malformed one, and the close to answer it with.
        case refused(WebSocketClose)
    }
}
