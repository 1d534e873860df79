import Foundation
@testable import MockServerWire
import Testing

/// The frame parser, writer and message assembler alone, without a socket.
@Suite struct WebSocketCodecTests {
    static let key = WebSocketMaskingKey(0x3712_5A0F)

    /// Parses `bytes` fed in reads of `step` bytes; the frames found and the refusal, if any.
    static func parse(
        _ bytes: Data, role: WebSocketFrameParser.Role = .server, maxFrameSize: Int = 1 << 20, step: Int = .max
    ) -> (
        frames: [WebSocketFrame], refusal: WebSocketClose?
    ) {
        var parser = WebSocketFrameParser(role: role, maxFrameSize: maxFrameSize)
        var frames: [WebSocketFrame] = []
        var pending: [UInt8] = []
        var offset = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + step)
            pending += bytes[offset..<end]
            offset = end
            while !pending.isEmpty {
                let (consumed, outcome) = pending.withUnsafeBytes { parser.parse($0) }
                pending.removeFirst(consumed)
                switch outcome {
                case .needsMore: break
                case .frame(let frame):
                    frames.append(frame)
                    continue
                case .refused(let close): return (frames, close)
                }
                break
            }
        }
        return (frames, nil)
    }

    @Test(arguments: [0, 1, 125, 126, 65535, 65536, 70000])
    func maskedFrame_roundTrips_whateverItsLength_andReads(_ length: Int) {
        // Given a masked binary frame of `length` bytes
        let payload = Data((0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let bytes = WebSocketFrameWriter.encode(WebSocketFrame(opcode: .binary, payload: payload), maskingKey: Self.key)
        // Then the header takes the fewest bytes, and the frame reads back whole or byte by byte
        let headerSize = length <= 125 ? 2 : length <= 0xFFFF ? 4 : 10
        #expect(bytes.count == headerSize + 4 + length)
        for step in [Int.max, 7] {
            let (frames, refusal) = Self.parse(bytes, step: step)
            #expect(refusal == nil)
            #expect(frames == [WebSocketFrame(opcode: .binary, payload: payload)])
        }
    }

    @Test func rfcExample_maskedHello_reads() {
        // RFC 6455 §5.7: a masked "Hello"
        let bytes = Data([0x81, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58])
        #expect(Self.parse(bytes).frames == [WebSocketFrame(opcode: .text, payload: Data("Hello".utf8))])
        #expect(
            WebSocketFrameWriter.encode(WebSocketFrame(opcode: .text, payload: Data("Hello".utf8)), maskingKey: WebSocketMaskingKey(0x37FA_213D)) == bytes)
        // and unmasked, as a server sends it
        #expect(WebSocketFrameWriter.encode(WebSocketFrame(opcode: .text, payload: Data("Hello".utf8))) == Data([0x81, 0x05] + Array("Hello".utf8)))
    }

    static let violations: [(name: String, bytes: Data, role: WebSocketFrameParser.Role, code: UInt16)] = [
        ("unmasked client frame", WebSocketFrameWriter.encode(WebSocketFrame(opcode: .text, payload: Data("a".utf8))), .server, 1002),
        ("masked server frame", WebSocketFrameWriter.encode(WebSocketFrame(opcode: .text, payload: Data("a".utf8)), maskingKey: key), .client, 1002),
        ("RSV1 set", WebSocketFrameWriter.encode(fin: true, reservedBits: 4, opcode: 1, payload: Data(), maskingKey: key), .server, 1002),
        ("RSV3 set", WebSocketFrameWriter.encode(fin: true, reservedBits: 1, opcode: 2, payload: Data(), maskingKey: key), .server, 1002),
        ("reserved data opcode", WebSocketFrameWriter.encode(fin: true, reservedBits: 0, opcode: 3, payload: Data(), maskingKey: key), .server, 1002),
        ("reserved control opcode", WebSocketFrameWriter.encode(fin: true, reservedBits: 0, opcode: 0xB, payload: Data(), maskingKey: key), .server, 1002),
        ("fragmented ping", WebSocketFrameWriter.encode(fin: false, reservedBits: 0, opcode: 9, payload: Data(), maskingKey: key), .server, 1002),
        ("ping of 126 bytes", WebSocketFrameWriter.encode(WebSocketFrame(opcode: .ping, payload: Data(count: 126)), maskingKey: key), .server, 1002),
        ("64-bit length with its top bit", Data([0x82, 0xFF, 0x80, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0]), .server, 1002),
        ("frame over the limit", WebSocketFrameWriter.encode(WebSocketFrame(opcode: .binary, payload: Data(count: 2000)), maskingKey: key), .server, 1009),
    ]

    @Test(arguments: violations)
    func violation_isRefused_withItsCode(_ name: String, _ bytes: Data, _ role: WebSocketFrameParser.Role, _ code: UInt16) {
        let (frames, refusal) = Self.parse(bytes, role: role, maxFrameSize: 1024)
        #expect(frames.isEmpty, "\(name)")
        #expect(refusal?.code == code, "\(name)")
    }

    @Test func frameOverTheLimit_isRefusedAtItsHeader_beforeThePayload() {
        // Given only the header of a frame that declares 1 MiB
        var parser = WebSocketFrameParser(role: .server, maxFrameSize: 1024)
        let header: [UInt8] = [0x82, 0xFF, 0, 0, 0, 0, 0, 0x10, 0, 0]
        let outcome = header.withUnsafeBytes { parser.parse($0) }.outcome
        #expect(outcome == .refused(.tooBig("A frame of 1048576 bytes is over the limit of 1024 bytes.")))
    }

    // MARK: - Assembler

    static func assemble(_ frames: [WebSocketFrame], maxMessageSize: Int = 1 << 20) -> [WebSocketMessageAssembler.Outcome] {
        var assembler = WebSocketMessageAssembler(maxMessageSize: maxMessageSize)
        return frames.map { assembler.add($0) }
    }

    @Test func fragments_makeOneMessage_withAPingBetweenThem() {
        let outcomes = Self.assemble([
            WebSocketFrame(fin: false, opcode: .text, payload: Data("Hel".utf8)),
            WebSocketFrame(opcode: .ping, payload: Data("p".utf8)),
            WebSocketFrame(fin: false, opcode: .continuation, payload: Data()),
            WebSocketFrame(opcode: .continuation, payload: Data("lo".utf8)),
            WebSocketFrame(opcode: .binary, payload: Data([1, 2])),
        ])
        #expect(outcomes == [.fragment, .ping(Data("p".utf8)), .fragment, .message(.text("Hello")), .message(.binary(Data([1, 2])))])
    }

    @Test func textCutInsideACharacter_isWholeOnceReassembled() {
        let bytes = Array("é".utf8)
        let outcomes = Self.assemble([
            WebSocketFrame(fin: false, opcode: .text, payload: Data(bytes[..<1])), WebSocketFrame(opcode: .continuation, payload: Data(bytes[1...])),
        ])
        #expect(outcomes.last == .message(.text("é")))
    }

    static let assemblyViolations: [(name: String, frames: [WebSocketFrame], code: UInt16)] = [
        ("continuation without a start", [WebSocketFrame(opcode: .continuation, payload: Data())], 1002),
        (
            "new message mid-message",
            [WebSocketFrame(fin: false, opcode: .text, payload: Data("a".utf8)), WebSocketFrame(opcode: .binary, payload: Data())], 1002
        ),
        ("invalid UTF-8", [WebSocketFrame(opcode: .text, payload: Data([0xCE, 0xBA, 0xE1, 0xBD]))], 1007),
        ("overlong UTF-8", [WebSocketFrame(opcode: .text, payload: Data([0xC0, 0xAF]))], 1007),
        (
            "message over the limit",
            [WebSocketFrame(fin: false, opcode: .binary, payload: Data(count: 60)), WebSocketFrame(opcode: .continuation, payload: Data(count: 60))], 1009
        ),
        ("close body of one byte", [WebSocketFrame(opcode: .close, payload: Data([3]))], 1002),
        ("close reason not UTF-8", [WebSocketFrame(opcode: .close, payload: Data([0x03, 0xE8, 0xFF]))], 1007),
    ]

    @Test(arguments: assemblyViolations)
    func assemblyViolation_isRefused_withItsCode(_ name: String, _ frames: [WebSocketFrame], _ code: UInt16) {
        guard case .refused(let close) = Self.assemble(frames, maxMessageSize: 100).last else {
            Issue.record("\(name) was not refused")
            return
        }
        #expect(close.code == code, "\(name)")
    }

    @Test(arguments: [
        (UInt16(999), false), (1000, true), (1003, true), (1004, false), (1005, false), (1006, false), (1007, true), (1011, true), (1014, true),
        (1015, false), (1016, false), (2999, false), (3000, true), (4999, true), (5000, false),
    ])
    func closeCode_fromAPeer_isAcceptedOnlyWhenSendable(_ code: UInt16, _ accepted: Bool) {
        let payload = Data([UInt8(code >> 8), UInt8(code & 0xFF)] + Array("bye".utf8))
        switch WebSocketClose.parse(payload) {
        case .close(let close):
            #expect(accepted)
            #expect(close == WebSocketClose(code: code, reason: "bye"))
        case .refused(let close):
            #expect(!accepted)
            #expect(close.code == 1002)
        }
    }

    @Test func closeWithoutABody_hasNoCode_andAReasonIsCutAtACharacter() {
        #expect(WebSocketClose.parse(Data()) == .close(WebSocketClose(code: nil)))
        #expect(WebSocketClose(code: nil, reason: "ignored").payload.isEmpty)
        let payload = WebSocketClose(code: 1000, reason: String(repeating: "é", count: 100)).payload
        #expect(payload.count == 2 + 122)
        #expect(String(validUTF8: payload.dropFirst(2)) != nil)
    }

    // MARK: - Handshake

    @Test func accept_matchesRFC6455sExample() {
        #expect(WebSocketHandshake.accept(forKey: "dGhlIHNhbXBsZSBub25jZQ==") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    }

    @Test(arguments: [
        ("", "da39a3ee5e6b4b0d3255bfef95601890afd80709"),
        ("abc", "a9993e364706816aba3e25717850c26c9cd0d89d"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "84983e441c3bd26ebaae4aa1f95129e5e54670f1"),
        (String(repeating: "a", count: 1_000_000), "34aa973cd4c4daa4f61eeb2bdbad27316534016f"),
    ])
    func sha1_matchesFIPSVectors(_ input: String, _ digest: String) {
        #expect(SHA1.digest(Array(input.utf8)).map { String(format: "%02x", $0) }.joined() == digest)
    }

    static let upgrade = HTTPRequest(
        method: "GET", target: "/chat",
        headers: [
            "Host": "x", "Upgrade": "WebSocket", "Connection": "keep-alive, Upgrade", "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
            "Sec-WebSocket-Version": "13", "Sec-WebSocket-Protocol": "chat, superchat",
        ])

    @Test func response_isA101_withTheAcceptTheSubprotocolAndTheExtras_inOrder() throws {
        #expect(WebSocketHandshake.isUpgrade(Self.upgrade))
        let response = try WebSocketHandshake.response(to: Self.upgrade, subprotocol: "superchat", headers: ["X-Recorded": "1"])
        #expect(response.status == 101)
        #expect(
            response.headers.lines.map { "\($0.name): \($0.value)" } == [
                "Upgrade: websocket", "Connection: Upgrade", "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=", "Sec-WebSocket-Protocol: superchat",
                "X-Recorded: 1",
            ])
    }

    static func changed(_ name: String, to value: String?) -> HTTPRequest {
        var request = upgrade
        if let value { request.headers.set(name: name, value: value) } else { request.headers.remove(name: name) }
        return request
    }

    @Test(
        arguments: [
            (changed("Sec-WebSocket-Version", to: "8"), nil, 426),
            (changed("Sec-WebSocket-Key", to: "c2hvcnQ="), nil, 400),
            (changed("Sec-WebSocket-Key", to: nil), nil, 400),
            (changed("Upgrade", to: "h2c"), nil, 400),
            (upgrade, "unoffered", 400),
        ] as [(HTTPRequest, String?, Int)])
    func badHandshake_isRejected_withItsStatus(_ request: HTTPRequest, _ subprotocol: String?, _ status: Int) {
        #expect(throws: RequestRejection.self) { try WebSocketHandshake.response(to: request, subprotocol: subprotocol, headers: [:]) }
        do {
            _ = try WebSocketHandshake.response(to: request, subprotocol: subprotocol, headers: [:])
        } catch {
            #expect(error.status == status)
            if status == 426 { #expect(error.response.headers["Sec-WebSocket-Version"] == "13") }
        }
    }
}
