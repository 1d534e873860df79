import Foundation

/// Bodies and headers between a cassette and HAR. One rule makes the round trip lossless: the HAR
/// `mimeType` names a type under which the stored body's kind (JSON, text, base64) is chosen again on import,
/// so a cassette body survives even when its `Content-Type` header is missing or says otherwise.
enum HARBody {
    /// The `mimeType` to write for `body`: the `Content-Type` header when it reproduces the body's kind, else
    /// a type that does (`application/json`, `text/plain`, `application/octet-stream`).
    static func mimeType(for body: RecordedBody, contentType: String?) -> String {
        if let contentType, RecordedBody(body.data, contentType: contentType) == body { return contentType }
        switch body.form {
        case .empty: return contentType ?? "x-unknown"
        case .json: return "application/json"
        case .text: return "text/plain"
        case .binary: return "application/octet-stream"
        case .stream: return contentType ?? "application/octet-stream"  // `_stream` keeps the kind
        }
    }

    /// The body as HAR text: JSON compactly serialized, text as is, anything else base64 (`encoding`).
    static func text(of body: RecordedBody) -> (text: String?, encoding: String?) {
        switch body.form {
        case .empty: (nil, nil)
        case .json, .text: (String(decoding: body.data, as: UTF8.self), nil)
        case .binary(let data): (data.base64EncodedString(), "base64")
        // HAR has no timing per part: the stream's bytes as one body, text when they are UTF-8.
        case .stream(let stream):
            String(validUTF8: stream.data).map { ($0, nil) } ?? (stream.data.base64EncodedString(), "base64")
        }
    }

    /// The bytes of a HAR body: `text` as UTF-8, or decoded from base64 when `encoding` says so.
    static func bytes(text: String?, encoding: String?, entry: Int?, field: String) throws(MockServerError) -> Data {
        guard let text, !text.isEmpty else { return Data() }
        switch encoding?.lowercased() {
        case nil, "":
            return Data(text.utf8)
        case "base64":
            guard let data = Data(base64Encoded: text, options: .ignoreUnknownCharacters) else {
                throw MockServerError(code: .invalidField, entry: entry, reason: "\(field).text is not valid base64")
            }
            return data
        case let other?:
            throw MockServerError(code: .invalidField, entry: entry, reason: "\(field).encoding \"\(other)\" is not supported; only base64 is")
        }
    }

    /// The stored body for imported bytes: its kind is chosen from `mimeType` when that is a real media type
    /// (it has a `/`; writers put `x-unknown` or nothing otherwise), else from the `Content-Type` header.
    static func recordedBody(_ data: Data, mimeType: String?, headers: HTTPHeaders) -> RecordedBody {
        let type = mimeType.flatMap { $0.contains("/") ? $0 : nil } ?? headers["Content-Type"]
        return RecordedBody(data, contentType: type)
    }

    /// The header lines of `field` (`request` or `response`) as a cassette holds them: as exported by this
    /// project, or, from a `foreign` writer, as ``storedHeaders(_:body:entry:field:)`` keeps them.
    /// Throws ``MockServerError`` `invalidField` for a header without a name, which no cassette can hold.
    static func headers(_ harHeaders: [HARNameValue], body: Data, entry: Int, field: String, foreign: Bool) throws(MockServerError) -> HTTPHeaders {
        if let position = harHeaders.firstIndex(where: { $0.name.isEmpty }) {
            throw MockServerError(code: .invalidField, entry: entry, reason: "\(field).headers[\(position)]: the header name is empty")
        }
        guard foreign else { return HTTPHeaders(harHeaders.map { HTTPHeader(name: $0.name, value: $0.value) }) }
        return try storedHeaders(harHeaders, body: body, entry: entry, field: field)
    }

    /// Headers of a foreign archive as a cassette stores them. HTTP/2 pseudo-headers (`:authority`) go, and
    /// so do the framing headers that described the bytes on the wire rather than the decoded body HAR
    /// writers keep: `Content-Encoding`, `Transfer-Encoding`, and `Content-Length` when either was present
    /// or it does not state the body's size. An empty body keeps an honest `Content-Length`, which is how a
    /// `HEAD` answer announces its resource's size.
    private static func storedHeaders(_ harHeaders: [HARNameValue], body: Data, entry: Int, field: String) throws(MockServerError) -> HTTPHeaders {
        var headers = HTTPHeaders(harHeaders.filter { !$0.name.hasPrefix(":") }.map { HTTPHeader(name: $0.name, value: $0.value) })
        let coding = headers["Content-Encoding"]?.trimmingHTTPWhitespace().lowercased() ?? ""
        let compressed = !coding.isEmpty && coding != "identity"
        if coding.contains("gzip"), body.starts(with: [0x1F, 0x8B]) {
            throw MockServerError(
                code: .invalidField, entry: entry,
                reason: "\(field) body is still gzip-compressed; export the archive again with decoded content")
        }
        let chunked = headers.contains("Transfer-Encoding")
        headers.remove(name: "Content-Encoding")
        headers.remove(name: "Transfer-Encoding")
        if let length = headers["Content-Length"]?.trimmingHTTPWhitespace(),
            compressed || chunked || (!body.isEmpty && length != String(body.count))
        {
            headers.remove(name: "Content-Length")
        }
        return headers
    }

    /// A body rebuilt from `postData.params`, for writers that give fields without `text`: form-encoded, or
    /// multipart with the boundary named in the media type.
    static func formBody(_ params: [HARParam], mimeType: String, entry: Int) throws(MockServerError) -> Data {
        let type = MediaType(mimeType)
        if type.isMultipartFormData {
            guard let boundary = type.parameter("boundary"), !boundary.isEmpty else {
                throw MockServerError(
                    code: .invalidField, entry: entry,
                    reason: "request.postData has params but no text, and its multipart type names no boundary")
            }
            var body = ""
            for param in params {
                body += "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(param.name)\""
                if let fileName = param.fileName { body += "; filename=\"\(fileName)\"" }
                body += "\r\n"
                if let contentType = param.contentType { body += "Content-Type: \(contentType)\r\n" }
                body += "\r\n\(param.value ?? "")\r\n"
            }
            return Data((body + "--\(boundary)--\r\n").utf8)
        }
        guard type.isFormURLEncoded else {
            throw MockServerError(
                code: .invalidField, entry: entry,
                reason: "request.postData has params but no text, and \"\(mimeType)\" is not a form type")
        }
        return Data(params.map { formEncoded($0.name) + "=" + formEncoded($0.value ?? "") }.joined(separator: "&").utf8)
    }

    /// `application/x-www-form-urlencoded` encoding: unreserved characters kept, space as `+`.
    private static func formEncoded(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            case UInt8(ascii: " "):
                result += "+"
            default:
                result += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return result
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
