import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ServiceKit
import ExampleServices
import ServiceKitTesting
import ServiceReplayShared
import Testing

@Suite struct PhotoUploadServiceTests {
    static let baseURL = "https://api.nice.example/v1"
    static let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46, 0xFF, 0xD9])
    let service = PhotoUploadService(caption: "Sunset", jpegData: jpeg)
    let created = ScriptedTransport.Step.json(["id": "p_981", "url": "https://cdn.nice.example/photos/p_981.jpg"], status: 201)

    @Test func request_isMultipartWithCaptionAndJPEGPart() async throws {
        let transport = ScriptedTransport(created)
        _ = try await makeClient(transport, baseURL: Self.baseURL).send(service)
        let request = try #require(transport.requests.first)
        #expect(request.httpMethod == "POST")
        #expect(request.url?.absoluteString == "https://api.nice.example/v1/photos")
        let contentType = try #require(request.value(forHTTPHeaderField: "Content-Type"))
        let boundary = String(contentType.dropFirst("multipart/form-data; boundary=".count))
        var expected = Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"caption\"\r\n\r\nSunset\r\n".utf8)
        expected.append(
            Data(
                ("--\(boundary)\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"photo.jpg\"\r\n"
                    + "Content-Type: image/jpeg\r\n\r\n").utf8))
        expected.append(Self.jpeg)
        expected.append(Data("\r\n--\(boundary)--\r\n".utf8))
        #expect(request.httpBody == expected)
    }

    @Test func response_mapsIdAndURL() async throws {
        let photo = try await makeClient(ScriptedTransport(created), baseURL: Self.baseURL).send(service)
        #expect(photo == UploadedPhoto(id: "p_981", url: URL(string: "https://cdn.nice.example/photos/p_981.jpg")!))
    }

    @Test func upload_reportsProgressToTheCaller() async throws {
        let steps = [UploadProgress(bytesSent: 100, totalBytes: 400), UploadProgress(bytesSent: 400, totalBytes: 400)]
        let transport = ScriptedTransport(
            .respond(
                .json(["id": "p_1", "url": "https://cdn.nice.example/p_1.jpg"], status: 201),
                progress: steps))
        let seen = Lock<[UploadProgress]>([])
        _ = try await makeClient(transport, baseURL: Self.baseURL).send(
            service,
            uploadProgress: { progress in
                seen.withLock { $0.append(progress) }
            })
        #expect(seen.withLock { $0 } == steps)
    }

    @Test func tooLarge_isServiceLevelWithServerMessage() async {
        let transport = ScriptedTransport(
            .json(
                ["error": "photo_too_large", "message": "Photos must be under 10 MB."],
                status: 413))
        let error = await #expect(throws: WebServiceError.self) {
            try await makeClient(transport, baseURL: Self.baseURL).send(service)
        }
        #expect(error?.reason == .service(.httpStatus(413, message: "Photos must be under 10 MB.")))
    }

    @Test func lostConnection_isNetworkLevel_andTheUploadIsNotRepeated() async {
        let transport = ScriptedTransport(.fail(URLError(.networkConnectionLost)), created)
        let error = await #expect(throws: WebServiceError.self) {
            try await makeClient(transport, baseURL: Self.baseURL, retryPolicy: RetryPolicy(jitter: 0)).send(service)
        }
        #expect(error?.reason == .network(.connectionLost))
        #expect(transport.requests.count == 1)
    }
}
