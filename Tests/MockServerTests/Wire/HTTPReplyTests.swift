import Foundation
@testable import MockServer
@testable import MockServerWire
import Testing

/// ``HTTPReply`` as a value: how replies describe themselves and compose.
@Suite struct HTTPReplyTests {
    @Test(arguments: [
        (HTTPReply.response(status: 503), "response 503"),
        (.raw(Data(count: 42), then: .reset), "raw 42 bytes, then reset"),
        (.raw(Data(count: 1)), "raw 1 bytes, then close"),
        (.close, "close"),
        (.reset, "reset"),
        (.stall, "stall"),
        (.delayed(by: .milliseconds(200), .response(status: 200)), "delayed 200 ms, then response 200"),
        (.delayed(by: .microseconds(1500), .close), "delayed 1.5 ms, then close"),
        (.delayed(by: .seconds(-1), .close), "delayed 0 ms, then close"),
        (.throttled(bytesPerSecond: 2048, .delayed(by: .seconds(1), .response(status: 200))), "throttled 2048 B/s: delayed 1000 ms, then response 200"),
        (.throttled(bytesPerSecond: 0, .stall), "throttled 1 B/s: stall"),
        (.deferred { _ in }, "deferred"),
    ])
    func description_namesTheReplyAndItsParts(reply: HTTPReply, expected: String) {
        #expect(reply.description == expected)
    }
}
