import Foundation
@testable import MockServer
import ServiceKit
import ExampleServices
import ServiceReplayShared
import Testing

/// `PhotoUploadService` against `Recordings/upload/photos.json` over loopback HTTP: a multipart POST whose
/// parts must match the recorded ones.
@Suite(.timeLimit(.minutes(1))) struct PhotoUploadReplayTests {
    static let cassette = "upload/photos"

    @Test func upload_readsTheCreatedPhoto_andReportsProgressToTheEnd() async throws {
        // Given the recorded 201 for the recorded JPEG
        let recorded = try Recordings.cassette(Self.cassette).responseJSON(0)
        #expect(UploadFixture.jpeg.count == 299)
        #expect(UploadFixture.jpeg.prefix(2) == Data([0xFF, 0xD8]))
        let caption = String(decoding: try UploadFixture.recordedPart(named: "caption"), as: UTF8.self)
        try await withReplay(Self.cassette, faults: .none) { replay in
            // When the photo is uploaded with its caption, following progress
            let progress = Lock<[UploadProgress]>([])
            let photo = try await replay.client.send(
                PhotoUploadService(caption: caption, jpegData: UploadFixture.jpeg),
                uploadProgress: { report in progress.withLock { $0.append(report) } })

            // Then the created photo reads as recorded
            #expect(photo.id == recorded["id"]?.string)
            #expect(photo.url == recorded["url"]?.url)
            // And progress rose to the whole body the server received
            let reports = progress.withLock { $0 }
            let body = try #require(replay.server.journal.entries.first?.request.body)
            #expect(reports.last?.bytesSent == Int64(body.count))
            #expect(reports.map(\.bytesSent) == reports.map(\.bytesSent).sorted())
            // And it went out as multipart form data
            let contentType = try #require(replay.server.journal.entries.first?.request.headers["Content-Type"])
            #expect(contentType.hasPrefix("multipart/form-data; boundary="))
        }
    }

    @Test func upload_tooLarge_isHTTP413WithTheServersMessage() async throws {
        // Given a server answering with the photo_too_large template
        let message = try #require(try Recordings.cassette(Self.cassette).templateJSON("photo_too_large")["message"]?.string)
        try await withReplay(Self.cassette, faults: .specs("service-error=photo_too_large")) { replay in
            // When the photo is uploaded
            let error = await #expect(throws: WebServiceError.self) {
                try await replay.client.send(PhotoUploadService(caption: "Sunset over the bay", jpegData: UploadFixture.jpeg))
            }

            // Then it is HTTP 413 with the server's sentence
            #expect(error?.reason == .service(.httpStatus(413, message: message)))
        }
    }
}
