import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ServiceKit
import ServiceKitTesting
import Testing

@Suite struct MultipartEncodingTests {
    @Test func multipart_writesTextPartsThenFilePartsWithTheAnnouncedBoundary() async throws {
        // Given a caption and a small binary file
        let bytes = Data([0xFF, 0xD8, 0xFF, 0x00, 0x0D, 0x0A])
        let service = EchoService(
            endpoint: "/photos", method: .post, parameters: ["caption": "Sunset \"1\""],
            parameterEncoding: .multipart,
            files: [
                MultipartFile(
                    name: "photo", filename: "photo.jpg", contentType: "image/jpeg",
                    data: bytes)
            ])
        let transport = ScriptedTransport(.json(["id": "p"], status: 201))
        // When it is sent
        _ = try await makeClient(transport).send(service)
        let request = try #require(transport.requests.first)
        // Then the body is exactly the RFC 7578 layout for the boundary in the Content-Type
        let contentType = try #require(request.value(forHTTPHeaderField: "Content-Type"))
        #expect(contentType.hasPrefix("multipart/form-data; boundary="))
        let boundary = String(contentType.dropFirst("multipart/form-data; boundary=".count))
        var expected = Data()
        expected.append(Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"caption\"\r\n\r\nSunset \"1\"\r\n".utf8))
        expected.append(Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"photo.jpg\"\r\n".utf8))
        expected.append(Data("Content-Type: image/jpeg\r\n\r\n".utf8))
        expected.append(bytes)
        expected.append(Data("\r\n--\(boundary)--\r\n".utf8))
        #expect(request.httpBody == expected)
    }

    @Test func multipart_boundariesDifferPerRequest() async throws {
        let transport = ScriptedTransport(.json(["id": "p"]))
        let client = makeClient(transport)
        let service = EchoService(method: .post, parameters: ["a": "1"], parameterEncoding: .multipart)
        _ = try await client.send(service)
        _ = try await client.send(service)
        let types = transport.requests.compactMap { $0.value(forHTTPHeaderField: "Content-Type") }
        #expect(types.count == 2)
        #expect(types[0] != types[1])
    }
}
