import Foundation
@testable import MockServer
import Testing

/// A body capture could not decode is kept with its `Content-Encoding`; replay sends both as the cassette
/// holds them, for plain bodies and streams alike.
@Suite struct ReplayContentEncodingTests {
    /// Bytes that are not UTF-8 (as brotli output usually is not): replay must neither decode nor re-label them.
    private static let coded = Data([0x1B, 0x0A, 0x00, 0xF8, 0xA5, 0x40, 0xC2, 0x02, 0xFF, 0x0D, 0x0A, 0x03])

    /// The cassette as a file holds it: a brotli body in base64, and a brotli stream in two parts.
    private static let document = """
        {"format": "servicereplay-cassette", "version": 1, "name": "coded", "interactions": [
          {"request": {"method": "GET", "target": "/brotli"},
           "response": {"status": 200, "headers": [["Content-Type", "application/json"], ["Content-Encoding", "br"]],
                        "body": {"base64": "\(coded.base64EncodedString())"}}},
          {"request": {"method": "GET", "target": "/stream"},
           "response": {"status": 200, "headers": [["Content-Type", "text/event-stream"], ["Content-Encoding", "br"]],
                        "body": {"stream": [{"offsetMs": 0, "base64": "\(coded.prefix(5).base64EncodedString())"},
                                            {"offsetMs": 0, "base64": "\(coded.dropFirst(5).base64EncodedString())"}]}}}
        ]}
        """

    @Test(arguments: ["/brotli", "/stream"])
    func codedBody_isReplayedWithItsContentEncoding_byteForByte(target: String) async throws {
        // GIVEN the cassette decoded from its file form
        let cassette = try Cassette(jsonData: Data(Self.document.utf8), source: "coded.json")
        let recorded = try #require(cassette.interactions.first { $0.request.target == target }?.response)
        #expect(recorded.body.data == Self.coded)
        try await withMockServer(cassettes: [cassette], configuration: .init(faults: .none, strict: true)) { server in
            // WHEN a raw client asks for it
            let response = try await rawExchange(server.baseURL!, "GET \(target) HTTP/1.1\r\nHost: localhost")
            // THEN it gets the recorded Content-Encoding with exactly the bytes the cassette holds
            #expect(response.status == 200)
            #expect(response.headers["Content-Encoding"] == "br")
            #expect(response.headers["Content-Type"] == recorded.headers["Content-Type"])
            #expect(response.body == recorded.body.data)
        }
    }
}
