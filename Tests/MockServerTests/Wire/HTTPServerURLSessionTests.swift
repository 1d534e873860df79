import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import MockServer
@testable import MockServerWire
import Testing

/// The server as a real client sees it: URLSession over loopback.
@Suite struct HTTPServerURLSessionTests {
    private static let json = Data(#"{"login":"octocat","id":1}"#.utf8)

    @Test func get_returnsStatusHeadersAndBody() async throws {
        try await withServer(respond: { request in
            .response(status: 200, headers: ["Content-Type": "application/json", "X-Target": request.target], body: Self.json)
        }) { _, url in
            try await withURLSession { session in
                let (data, response) = try await session.httpData(for: URLRequest(url: url.appendingPathComponent("users/octocat")))
                #expect(response.statusCode == 200)
                #expect(response.value(forHTTPHeaderField: "Content-Type") == "application/json")
                #expect(response.value(forHTTPHeaderField: "X-Target") == "/users/octocat")
                #expect(data == Self.json)
            }
        }
    }

    @Test func post_bodyReachesTheHandler() async throws {
        try await withServer { _, url in
            try await withURLSession { session in
                var request = URLRequest(url: url.appendingPathComponent("login"))
                request.httpMethod = "POST"
                request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
                request.httpBody = Data("username=ann&password=secret".utf8)
                let (data, response) = try await session.httpData(for: request)
                #expect(response.value(forHTTPHeaderField: "X-Method") == "POST")
                #expect(String(decoding: data, as: UTF8.self) == "username=ann&password=secret")
            }
        }
    }

    @Test func head_returnsTheLengthWithoutABody() async throws {
        try await withServer(respond: { _ in .response(status: 200, body: Self.json) }) { _, url in
            try await withURLSession { session in
                var request = URLRequest(url: url)
                request.httpMethod = "HEAD"
                let (data, response) = try await session.httpData(for: request)
                #expect(response.value(forHTTPHeaderField: "Content-Length") == String(Self.json.count))
                #expect(data.isEmpty)
            }
        }
    }

    @Test func manyConcurrentRequests_areAllAnsweredCorrectly() async throws {
        try await withServer { _, url in
            try await withURLSession { session in
                try await withThrowingTaskGroup(of: Bool.self) { group in
                    for index in 0..<40 {
                        group.addTask {
                            var request = URLRequest(url: url.appendingPathComponent("item/\(index)"))
                            request.httpMethod = "PUT"
                            request.httpBody = Data("body \(index)".utf8)
                            let (data, response) = try await session.httpData(for: request)
                            return response.value(forHTTPHeaderField: "X-Target") == "/item/\(index)" && data == Data("body \(index)".utf8)
                        }
                    }
                    var correct = 0
                    for try await ok in group where ok { correct += 1 }
                    #expect(correct == 40)
                }
            }
        }
    }

    @Test func deferredAnswers_reachURLSession() async throws {
        try await withServer(respond: { _ in
            .async {
                try? await Task.sleep(for: .milliseconds(20))
                return .response(status: 202, body: Data("later".utf8))
            }
        }) { _, url in
            try await withURLSession { session in
                let (data, response) = try await session.httpData(for: URLRequest(url: url))
                #expect(response.statusCode == 202)
                #expect(data == Data("later".utf8))
            }
        }
    }

    @Test func errorStatuses_arriveAsResponses() async throws {
        try await withServer(respond: { _ in .response(status: 503, headers: ["Retry-After": "7"], body: Data("down".utf8)) }) { _, url in
            try await withURLSession { session in
                let (data, response) = try await session.httpData(for: URLRequest(url: url))
                #expect(response.statusCode == 503)
                #expect(response.value(forHTTPHeaderField: "Retry-After") == "7")
                #expect(data == Data("down".utf8))
            }
        }
    }

    @Test(arguments: [HTTPReply.close, .reset])
    func connectionFailures_surfaceAsURLErrors(reply: HTTPReply) async throws {
        try await withServer(respond: { _ in reply }) { _, url in
            try await withURLSession(timeout: 5) { session in
                await #expect(throws: URLError.self) {
                    _ = try await session.httpData(for: URLRequest(url: url))
                }
            }
        }
    }
}
