import Foundation
@testable import MockServer
import Testing

/// What counts as "the same request": a table of recorded/received pairs, checked through the public rule
/// API and through a real engine lookup, which must agree.
@Suite struct MatchSemanticsTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let recorded: RecordedRequest
        let received: HTTPRequest
        var rules = MatchRules()
        let matches: Bool
        var testDescription: String { name }
    }

    static func get(_ target: String, headers: HTTPHeaders = [:]) -> HTTPRequest {
        HTTPRequest(method: "GET", target: target, headers: headers)
    }

    static func recordedGet(_ target: String, headers: HTTPHeaders = [:]) -> RecordedRequest {
        RecordedRequest(method: "GET", target: target, headers: headers)
    }

    static func post(_ target: String, _ contentType: String?, _ body: String) -> HTTPRequest {
        HTTPRequest(method: "POST", target: target, headers: contentType.map { ["Content-Type": $0] } ?? [:], body: Data(body.utf8))
    }

    static func recordedPost(_ target: String, _ contentType: String?, _ body: String) -> RecordedRequest {
        RecordedRequest(post(target, contentType, body))
    }

    static func multipart(boundary: String, parts: [(name: String, filename: String?, type: String?, content: String)]) -> String {
        var text = "preamble\r\n"
        for part in parts {
            text += "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(part.name)\""
            if let filename = part.filename { text += "; filename=\"\(filename)\"" }
            text += "\r\n"
            if let type = part.type { text += "Content-Type: \(type)\r\n" }
            text += "\r\n\(part.content)\r\n"
        }
        return text + "--\(boundary)--\r\n"
    }

    /// A `multipart/related` upload (metadata, then media) as Google's and Drive's APIs take it: parts without names.
    static func related(boundary: String, media: String) -> String {
        "--\(boundary)\r\nContent-Type: application/json\r\n\r\n{\"name\":\"a.png\"}\r\n"
            + "--\(boundary)\r\nContent-Type: image/png\r\n\r\n\(media)\r\n--\(boundary)--\r\n"
    }

    /// An Azure block list committing `ids` as the latest blocks.
    static func blockList(_ ids: String...) -> String {
        #"<?xml version="1.0" encoding="utf-8"?><BlockList>"# + ids.map { "<Latest>\($0)</Latest>" }.joined() + "</BlockList>"
    }

    static let photoParts: [(name: String, filename: String?, type: String?, content: String)] = [
        ("caption", nil, nil, "At the beach"), ("photo", "photo.jpg", "image/jpeg", "\u{FF}JPEGBYTES"),
    ]

    static let cases: [Case] = [
        Case(name: "query order is irrelevant", recorded: recordedGet("/a?x=1&y=2"), received: get("/a?y=2&x=1"), matches: true),
        Case(name: "repeated keys compare as a multiset", recorded: recordedGet("/a?t=1&t=2"), received: get("/a?t=2&t=1"), matches: true),
        Case(name: "a missing repeat does not match", recorded: recordedGet("/a?t=1&t=2"), received: get("/a?t=1"), matches: false),
        Case(name: "an extra repeat does not match", recorded: recordedGet("/a?t=1"), received: get("/a?t=1&t=1"), matches: false),
        Case(name: "an extra parameter does not match", recorded: recordedGet("/a?x=1"), received: get("/a?x=1&y=2"), matches: false),
        Case(name: "a different value does not match", recorded: recordedGet("/a?x=1"), received: get("/a?x=2"), matches: false),
        Case(name: "%20 and + are both a space", recorded: recordedGet("/a?q=hello%20world"), received: get("/a?q=hello+world"), matches: true),
        Case(name: "escaped letters equal letters", recorded: recordedGet("/a?q=%41%62"), received: get("/a?q=Ab"), matches: true),
        Case(name: "escaped path characters equal characters", recorded: recordedGet("/users/a%40b"), received: get("/users/a@b"), matches: true),
        Case(name: "an escaped slash is not a slash", recorded: recordedGet("/a%2Fb"), received: get("/a/b"), matches: false),
        Case(name: "escape hex case is irrelevant", recorded: recordedGet("/a%2fb"), received: get("/a%2Fb"), matches: true),
        Case(
            name: "an absolute-form target compares by path and query", recorded: recordedGet("/a?x=1"),
            received: get("http://api.example.com:8080/a?x=1"), matches: true),
        Case(name: "a fragment is not part of the request", recorded: recordedGet("/a?x=1"), received: get("/a?x=1#top"), matches: true),
        Case(name: "a trailing slash matters", recorded: recordedGet("/users/"), received: get("/users"), matches: false),
        Case(name: "method case is irrelevant", recorded: RecordedRequest(method: "get", target: "/a"), received: get("/a"), matches: true),
        Case(name: "a different method does not match", recorded: RecordedRequest(method: "POST", target: "/a"), received: get("/a"), matches: false),
        Case(
            name: "JSON key order and 1 vs 1.0 are irrelevant",
            recorded: recordedPost("/a", "application/json", #"{"a": 1, "b": [1, 2e0]}"#),
            received: post("/a", "application/json; charset=utf-8", #"{"b":[1.0,2],"a":1.00}"#), matches: true),
        Case(
            name: "a different JSON value does not match",
            recorded: recordedPost("/a", "application/json", #"{"a": 1}"#), received: post("/a", "application/json", #"{"a": 2}"#), matches: false),
        Case(
            name: "JSON array order matters",
            recorded: recordedPost("/a", "application/json", "[1, 2]"), received: post("/a", "application/json", "[2, 1]"), matches: false),
        Case(
            name: "a JSON body sent as text/plain still compares as JSON",
            recorded: RecordedRequest(method: "POST", target: "/a", body: .json(["a": 1])),
            received: post("/a", "text/plain", #"{ "a" : 1 }"#), matches: true),
        Case(
            name: "form fields compare by field",
            recorded: recordedPost("/login", "application/x-www-form-urlencoded", "username=ann&password=x%20y"),
            received: post("/login", "application/x-www-form-urlencoded", "password=x+y&username=ann"), matches: true),
        Case(
            name: "a different form field does not match",
            recorded: recordedPost("/login", "application/x-www-form-urlencoded", "username=ann&password=1"),
            received: post("/login", "application/x-www-form-urlencoded", "username=ann&password=2"), matches: false),
        Case(
            name: "multipart compares parts, not the boundary",
            recorded: recordedPost("/photos", "multipart/form-data; boundary=AAA", multipart(boundary: "AAA", parts: photoParts)),
            received: post(
                "/photos", "multipart/form-data; boundary=\"Boundary-9f2c\"",
                multipart(boundary: "Boundary-9f2c", parts: photoParts.reversed())), matches: true),
        Case(
            name: "multipart with different bytes does not match",
            recorded: recordedPost("/photos", "multipart/form-data; boundary=AAA", multipart(boundary: "AAA", parts: photoParts)),
            received: post(
                "/photos", "multipart/form-data; boundary=BBB",
                multipart(
                    boundary: "BBB",
                    parts: [
                        ("caption", nil, nil, "At the beach"), ("photo", "photo.jpg", "image/jpeg", "OTHERBYTES"),
                    ])), matches: false),
        Case(
            name: "multipart with a different filename does not match",
            recorded: recordedPost("/photos", "multipart/form-data; boundary=AAA", multipart(boundary: "AAA", parts: photoParts)),
            received: post(
                "/photos", "multipart/form-data; boundary=BBB",
                multipart(
                    boundary: "BBB",
                    parts: [
                        ("caption", nil, nil, "At the beach"), ("photo", "other.jpg", "image/jpeg", "\u{FF}JPEGBYTES"),
                    ])), matches: false),
        Case(
            name: "multipart/related compares parts, not the boundary",
            recorded: recordedPost("/upload", "multipart/related; boundary=r1", related(boundary: "r1", media: "PNG")),
            received: post("/upload", "multipart/related; boundary=\"=_r2\"", related(boundary: "=_r2", media: "PNG")), matches: true),
        Case(
            name: "multipart/related with different part bytes does not match",
            recorded: recordedPost("/upload", "multipart/related; boundary=r1", related(boundary: "r1", media: "PNG")),
            received: post("/upload", "multipart/related; boundary=r2", related(boundary: "r2", media: "GIF")), matches: false),
        Case(
            name: "other bodies compare by bytes",
            recorded: RecordedRequest(method: "PUT", target: "/blob", headers: ["Content-Type": "application/octet-stream"], body: .binary(Data([1, 2, 3]))),
            received: HTTPRequest(method: "PUT", target: "/blob", headers: ["Content-Type": "application/octet-stream"], body: Data([1, 2, 3])),
            matches: true),
        Case(
            name: "different bytes do not match",
            recorded: RecordedRequest(method: "PUT", target: "/blob", headers: ["Content-Type": "application/octet-stream"], body: .binary(Data([1, 2, 3]))),
            received: HTTPRequest(method: "PUT", target: "/blob", headers: ["Content-Type": "application/octet-stream"], body: Data([1, 2, 4])),
            matches: false),
        Case(
            name: "a body where none was recorded does not match", recorded: RecordedRequest(method: "POST", target: "/a"),
            received: post("/a", "application/json", "{}"), matches: false),
        Case(
            name: "headers are not compared by default", recorded: recordedGet("/a", headers: ["Accept": "a"]),
            received: get("/a", headers: ["Accept": "b"]), matches: true),
        Case(
            name: "a chosen header must match", recorded: recordedGet("/a", headers: ["Accept": "a"]),
            received: get("/a", headers: ["Accept": "b"]), rules: MatchRules(headers: ["Accept"]), matches: false),
        Case(
            name: "a chosen header matches case-insensitively by name", recorded: recordedGet("/a", headers: ["accept": "a"]),
            received: get("/a", headers: ["ACCEPT": "a"]), rules: MatchRules(headers: ["Accept"]), matches: true),
        Case(
            name: "a missing chosen header does not match", recorded: recordedGet("/a", headers: ["Accept": "a"]),
            received: get("/a"), rules: MatchRules(headers: ["accept"]), matches: false),
        Case(
            name: "ignored query parameters are not compared", recorded: recordedGet("/a?x=1&_=123"),
            received: get("/a?_=999&x=1"), rules: MatchRules(ignoredQueryParameters: ["_"]), matches: true),
        Case(
            name: "an ignored query parameter may be absent", recorded: recordedGet("/a?x=1&_=123"),
            received: get("/a?x=1"), rules: MatchRules(ignoredQueryParameters: ["_"]), matches: true),
        Case(
            name: "ignored JSON fields are not compared at any depth",
            recorded: recordedPost("/a", "application/json", #"{"a": 1, "ts": 5, "meta": {"ts": 1, "b": 2}}"#),
            received: post("/a", "application/json", #"{"a": 1, "ts": 9, "meta": {"b": 2}}"#),
            rules: MatchRules(ignoredBodyFields: ["ts"]), matches: true),
        Case(
            name: "ignored form fields are not compared",
            recorded: recordedPost("/a", "application/x-www-form-urlencoded", "a=1&nonce=5"),
            received: post("/a", "application/x-www-form-urlencoded", "a=1&nonce=6"),
            rules: MatchRules(ignoredBodyFields: ["nonce"]), matches: true),
        Case(
            name: "a redacted query parameter matches any value", recorded: recordedGet("/friends?user_id=42&token=<redacted>"),
            received: get("/friends?token=abc123&user_id=42"), matches: true),
        Case(
            name: "a percent-encoded placeholder matches any value", recorded: recordedGet("/friends?token=%3Credacted%3E"),
            received: get("/friends?token=abc"), matches: true),
        Case(
            name: "a redacted query parameter must still be present", recorded: recordedGet("/friends?user_id=42&token=<redacted>"),
            received: get("/friends?user_id=42"), matches: false),
        Case(
            name: "redaction does not hide other differences", recorded: recordedGet("/friends?user_id=42&token=<redacted>"),
            received: get("/friends?user_id=43&token=abc"), matches: false),
        Case(
            name: "a redacted chosen header matches any value",
            recorded: recordedGet("/me", headers: ["Authorization": "<redacted>"]),
            received: get("/me", headers: ["Authorization": "Bearer abc"]), rules: MatchRules(headers: ["Authorization"]), matches: true),
        Case(
            name: "a redacted chosen header must be present",
            recorded: recordedGet("/me", headers: ["Authorization": "<redacted>"]),
            received: get("/me"), rules: MatchRules(headers: ["Authorization"]), matches: false),
        Case(
            name: "placeholders inside a chosen header match any text there",
            recorded: recordedGet("/me", headers: ["Cookie": "session=<redacted>; theme=<redacted>"]),
            received: get("/me", headers: ["Cookie": "session=9f8e7d; theme=dark"]), rules: MatchRules(headers: ["Cookie"]), matches: true),
        Case(
            name: "text around placeholders in a chosen header must match",
            recorded: recordedGet("/me", headers: ["Cookie": "session=<redacted>; theme=<redacted>"]),
            received: get("/me", headers: ["Cookie": "session=9f8e7d"]), rules: MatchRules(headers: ["Cookie"]), matches: false),
        Case(
            name: "a redacted JSON field matches any value, at any depth",
            recorded: recordedPost("/a", "application/json", #"{"user": "ann", "auth": {"password": "<redacted>"}}"#),
            received: post("/a", "application/json", #"{"auth": {"password": {"hash": 1}}, "user": "ann"}"#), matches: true),
        Case(
            name: "a redacted JSON field must be present",
            recorded: recordedPost("/a", "application/json", #"{"user": "ann", "password": "<redacted>"}"#),
            received: post("/a", "application/json", #"{"user": "ann"}"#), matches: false),
        Case(
            name: "a placeholder inside a JSON string (a URL's redacted signature) matches any text there",
            recorded: recordedPost(
                "/a", "application/json", #"{"callback": "https://cdn.example/v.mp4?Expires=1800000000&Signature=<redacted>&Key-Pair-Id=K2"}"#),
            received: post("/a", "application/json", #"{"callback": "https://cdn.example/v.mp4?Expires=1800000000&Signature=abc~def&Key-Pair-Id=K2"}"#),
            matches: true),
        Case(
            name: "text around a placeholder in a JSON string must match",
            recorded: recordedPost(
                "/a", "application/json", #"{"callback": "https://cdn.example/v.mp4?Expires=1800000000&Signature=<redacted>&Key-Pair-Id=K2"}"#),
            received: post("/a", "application/json", #"{"callback": "https://cdn.example/v.mp4?Expires=1800000000&Signature=abc~def&Key-Pair-Id=K3"}"#),
            matches: false),
        Case(
            name: "a placeholder inside a JSON string matches only a string",
            recorded: recordedPost("/a", "application/json", #"{"callback": "https://x/?sig=<redacted>"}"#),
            received: post("/a", "application/json", #"{"callback": ["https://x/?sig=abc"]}"#), matches: false),
        Case(
            name: "a redacted form field matches any value",
            recorded: recordedPost("/login", "application/x-www-form-urlencoded", "username=ann&password=<redacted>"),
            received: post("/login", "application/x-www-form-urlencoded", "username=ann&password=hunter2"), matches: true),
        Case(
            name: "a redacted multipart part matches any content",
            recorded: recordedPost(
                "/photos", "multipart/form-data; boundary=AAA",
                multipart(boundary: "AAA", parts: [("token", nil, nil, "<redacted>"), ("caption", nil, nil, "hi")])),
            received: post(
                "/photos", "multipart/form-data; boundary=BBB",
                multipart(boundary: "BBB", parts: [("token", nil, nil, "s3cret"), ("caption", nil, nil, "hi")])), matches: true),
        Case(
            name: "an ignored JSON path is left out of both bodies",
            recorded: recordedPost("/pay", "application/json", #"{"amount":5,"idempotencyKey":"k-1"}"#),
            received: post("/pay", "application/json", #"{"amount":5,"idempotencyKey":"k-2"}"#),
            rules: MatchRules(ignoredBodyPaths: ["$.idempotencyKey"]), matches: true),
        Case(
            name: "an ignored JSON path leaves the rest compared",
            recorded: recordedPost("/pay", "application/json", #"{"amount":5,"idempotencyKey":"k-1"}"#),
            received: post("/pay", "application/json", #"{"amount":6,"idempotencyKey":"k-2"}"#),
            rules: MatchRules(ignoredBodyPaths: ["$.idempotencyKey"]), matches: false),
        Case(
            name: "an ignored JSON path is from the root, not any depth",
            recorded: recordedPost("/pay", "application/json", #"{"inner":{"idempotencyKey":"k-1"}}"#),
            received: post("/pay", "application/json", #"{"inner":{"idempotencyKey":"k-2"}}"#),
            rules: MatchRules(ignoredBodyPaths: ["$.idempotencyKey"]), matches: false),
        Case(
            name: "an ignored JSON path with [*] covers every element",
            recorded: recordedPost("/batch", "application/json", #"{"items":[{"id":"a","n":1},{"id":"b","n":2}]}"#),
            received: post("/batch", "application/json", #"{"items":[{"id":"x","n":1},{"id":"y","n":2}]}"#),
            rules: MatchRules(ignoredBodyPaths: ["$.items[*].id"]), matches: true),
        Case(
            name: "an ignored XML element's content is left out",
            recorded: RecordedRequest(post("/c/blob?comp=blocklist", "application/xml", blockList("QUFB", "QkJC"))),
            received: post("/c/blob?comp=blocklist", "application/xml", blockList("WFhY", "WVlZ")),
            rules: MatchRules(ignoredXMLElements: ["Latest"]), matches: true),
        Case(
            name: "an ignored XML element still counts",
            recorded: RecordedRequest(post("/c/blob?comp=blocklist", "application/xml", blockList("QUFB", "QkJC"))),
            received: post("/c/blob?comp=blocklist", "application/xml", blockList("WFhY")),
            rules: MatchRules(ignoredXMLElements: ["Latest"]), matches: false),
        Case(
            name: "XML is compared by bytes without the rule",
            recorded: RecordedRequest(post("/c/blob?comp=blocklist", "application/xml", blockList("QUFB"))),
            received: post("/c/blob?comp=blocklist", "application/xml", blockList("WFhY")), matches: false),
        Case(
            name: "an ignored body for the method and path is not compared",
            recorded: RecordedRequest(method: "PUT", target: "/c/blob?comp=block", headers: [:], body: .binary(Data([1, 2]))),
            received: HTTPRequest(method: "PUT", target: "/c/blob?comp=block", body: Data([3, 4, 5])),
            rules: MatchRules(ignoredBodies: ["PUT /c/*"]), matches: true),
        Case(
            name: "an ignored body rule for another method still compares",
            recorded: RecordedRequest(method: "POST", target: "/c/blob", headers: [:], body: .binary(Data([1, 2]))),
            received: HTTPRequest(method: "POST", target: "/c/blob", body: Data([3, 4, 5])),
            rules: MatchRules(ignoredBodies: ["PUT /c/*"]), matches: false),
        Case(
            name: "the URL-legal placeholder in a recorded query matches any value", recorded: recordedGet("/o?sig=%3Credacted%3E&v=1"),
            received: get("/o?sig=Zm9v%2Bbar&v=1"), matches: true),
        Case(
            name: "the URL-legal placeholder still needs the parameter", recorded: recordedGet("/o?sig=%3Credacted%3E&v=1"),
            received: get("/o?v=1"), matches: false),
        Case(
            name: "a placeholder in the received request is just text", recorded: recordedGet("/a?token=abc"),
            received: get("/a?token=<redacted>"), matches: false),
        Case(
            name: "a recorded Range matches the same range", recorded: recordedGet("/o", headers: ["Range": "bytes=0-9"]),
            received: get("/o", headers: ["range": "bytes=0-9"]), matches: true),
        Case(
            name: "a recorded Range does not match another range", recorded: recordedGet("/o", headers: ["Range": "bytes=0-9"]),
            received: get("/o", headers: ["Range": "bytes=10-19"]), matches: false),
        Case(
            name: "a recorded Range must be present", recorded: recordedGet("/o", headers: ["Range": "bytes=0-9"]),
            received: get("/o"), matches: false),
        Case(
            name: "a recorded Range is compared with a query too", recorded: recordedGet("/o?v=1", headers: ["Range": "bytes=0-9"]),
            received: get("/o?v=1", headers: ["Range": "bytes=10-19"]), matches: false),
        Case(
            name: "a Range where none was recorded matches", recorded: recordedGet("/o"),
            received: get("/o", headers: ["Range": "bytes=0-9"]), matches: true),
        Case(
            name: "a recorded If-Range must match by value",
            recorded: recordedGet("/o", headers: ["Range": "bytes=0-9", "If-Range": "\"v1\""]),
            received: get("/o", headers: ["Range": "bytes=0-9", "If-Range": "\"v2\""]), matches: false),
        Case(
            name: "a recorded If-Range must be present",
            recorded: recordedGet("/o", headers: ["Range": "bytes=0-9", "If-Range": "\"v1\""]),
            received: get("/o", headers: ["Range": "bytes=0-9"]), matches: false),
        Case(
            name: "an If-Range where none was recorded matches", recorded: recordedGet("/o", headers: ["Range": "bytes=0-9"]),
            received: get("/o", headers: ["Range": "bytes=0-9", "If-Range": "\"v1\""]), matches: true),
        Case(
            name: "a recorded conditional request needs a conditional one", recorded: recordedGet("/e", headers: ["If-None-Match": "\"v1\""]),
            received: get("/e"), matches: false),
        Case(
            name: "conditional requests match whatever their validators", recorded: recordedGet("/e", headers: ["If-None-Match": "\"v1\""]),
            received: get("/e", headers: ["If-Modified-Since": "Tue, 01 Dec 2026 00:00:00 GMT"]), matches: true),
        Case(
            name: "If-Modified-Since makes a recorded request conditional",
            recorded: recordedGet("/e", headers: ["If-Modified-Since": "Tue, 01 Dec 2026 00:00:00 GMT"]),
            received: get("/e"), matches: false),
        Case(
            name: "a conditional request where none was recorded matches", recorded: recordedGet("/e"),
            received: get("/e", headers: ["If-None-Match": "\"v1\""]), matches: true),
        Case(
            name: "a URL presigned afresh matches one whose signature was redacted",
            recorded: recordedGet(awsPresigned(date: "20261126T000000Z", expires: "900", signature: "<redacted>")),
            received: get(awsPresigned(date: "20261201T120000Z", expires: "3600", signature: "9b1d2f4a")), matches: true),
        Case(
            name: "a presigned URL's signing times must be present",
            recorded: recordedGet(awsPresigned(date: "20261126T000000Z", expires: "900", signature: "<redacted>")),
            received: get(awsPresigned(date: "20261201T120000Z", expires: nil, signature: "9b1d2f4a")), matches: false),
        Case(
            name: "a presigned URL's other parameters are still compared",
            recorded: recordedGet(awsPresigned(date: "20261126T000000Z", expires: "900", signature: "<redacted>")),
            received: get(
                awsPresigned(date: "20261126T000000Z", expires: "900", signature: "9b1d2f4a")
                    .replacingOccurrences(of: "SignedHeaders=host", with: "SignedHeaders=host%3Brange")), matches: false),
        Case(
            name: "signing times are compared when the signature was kept",
            recorded: recordedGet(awsPresigned(date: "20261126T000000Z", expires: "900", signature: "9b1d2f4a")),
            received: get(awsPresigned(date: "20261201T120000Z", expires: "900", signature: "9b1d2f4a")), matches: false),
        Case(
            name: "a Google Cloud Storage URL presigned afresh matches",
            recorded: recordedGet(
                "/b/o?X-Goog-Algorithm=GOOG4-RSA-SHA256&X-Goog-Credential=<redacted>&X-Goog-Date=20261126T000000Z"
                    + "&X-Goog-Expires=900&X-Goog-SignedHeaders=host&X-Goog-Signature=<redacted>"),
            received: get(
                "/b/o?X-Goog-Algorithm=GOOG4-RSA-SHA256&X-Goog-Credential=sa%2F20261201&X-Goog-Date=20261201T120000Z"
                    + "&X-Goog-Expires=600&X-Goog-SignedHeaders=host&X-Goog-Signature=77aa"), matches: true),
        Case(
            name: "an Azure shared access signature issued afresh matches",
            recorded: recordedGet(
                "/c/blob?sv=2022-11-02&st=2026-11-26T00%3A00%3A00Z&se=2026-11-26T01%3A00%3A00Z&skt=2026-11-26T00%3A00%3A00Z"
                    + "&ske=2026-11-27T00%3A00%3A00Z&sr=b&sp=r&sig=<redacted>"),
            received: get(
                "/c/blob?sv=2022-11-02&st=2026-12-01T12%3A00%3A00Z&se=2026-12-01T13%3A00%3A00Z&skt=2026-12-01T12%3A00%3A00Z"
                    + "&ske=2026-12-02T12%3A00%3A00Z&sr=b&sp=r&sig=abc%3D"), matches: true),
        Case(
            name: "an Azure shared access signature with other permissions does not match",
            recorded: recordedGet("/c/blob?sv=2022-11-02&st=2026-11-26T00%3A00%3A00Z&se=2026-11-26T01%3A00%3A00Z&sr=b&sp=r&sig=<redacted>"),
            received: get("/c/blob?sv=2022-11-02&st=2026-12-01T12%3A00%3A00Z&se=2026-12-01T13%3A00%3A00Z&sr=b&sp=rw&sig=abc"), matches: false),
        Case(
            name: "a CloudFront or Signature Version 2 URL signed afresh matches",
            recorded: recordedGet("/img.png?Expires=1764115200&Signature=<redacted>&Key-Pair-Id=K2JCJMDEHXQW5F"),
            received: get("/img.png?Expires=1764550000&Signature=Zm9v~&Key-Pair-Id=K2JCJMDEHXQW5F"), matches: true),
    ]

    /// A path-style S3 GET presigned with Signature Version 4, as boto3 writes it (its credential redacted with a
    /// redacted signature, as recording does); `expires: nil` leaves that parameter out.
    static func awsPresigned(date: String, expires: String?, signature: String) -> String {
        let credential = signature == Cassette.redactionPlaceholder ? signature : "AKIAEXAMPLE%2F20261126%2Fus-east-1%2Fs3%2Faws4_request"
        return "/bucket/key.bin?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=\(credential)&X-Amz-Date=\(date)"
            + (expires.map { "&X-Amz-Expires=\($0)" } ?? "") + "&X-Amz-SignedHeaders=host&X-Amz-Signature=\(signature)"
    }

    @Test(arguments: cases)
    func matching(_ testCase: Case) {
        // WHEN compared through the rules
        #expect(testCase.rules.matches(testCase.recorded, testCase.received) == testCase.matches)
        // THEN the differences agree with the decision
        let differences = testCase.rules.differences(between: testCase.recorded, and: testCase.received)
        #expect(differences.isEmpty == testCase.matches, "\(differences)")
        // AND an engine over that one interaction decides the same way
        let cassette = Cassette(
            name: "c", matching: testCase.rules,
            interactions: [Interaction(request: testCase.recorded, response: RecordedResponse(status: 200))])
        let decision = ReplayEngine(cassettes: [cassette]).answer(testCase.received)
        #expect((decision.interaction != nil) == testCase.matches)
    }
}
