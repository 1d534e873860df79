import Foundation

/// One part of a multipart body (`form-data`, `related`, `mixed`...): what matching compares (never the boundary).
struct MultipartPart: Sendable, Hashable, Comparable {
    var name: String
    var filename: String?
    var contentType: String?
    var data: Data

    static func < (lhs: MultipartPart, rhs: MultipartPart) -> Bool {
        if lhs.name != rhs.name { return lhs.name.utf8.lexicographicallyPrecedes(rhs.name.utf8) }
        if lhs.filename != rhs.filename { return (lhs.filename ?? "").utf8.lexicographicallyPrecedes((rhs.filename ?? "").utf8) }
        if lhs.contentType != rhs.contentType {
            return (lhs.contentType ?? "").utf8.lexicographicallyPrecedes((rhs.contentType ?? "").utf8)
        }
        return lhs.data.lexicographicallyPrecedes(rhs.data)
    }

    /// Splits a multipart body on `boundary`; `nil` when the body does not follow RFC 7578's layout
    /// (`--boundary CRLF headers CRLF CRLF content CRLF --boundary ... --boundary--`). Bare LF line ends are
    /// accepted too.
    static func parse(_ body: Data, boundary: String) -> [MultipartPart]? {
        let bytes = [UInt8](body)
        let delimiter = [UInt8]("--\(boundary)".utf8)
        guard !boundary.isEmpty, var position = find(delimiter, in: bytes, from: 0) else { return nil }
        var parts: [MultipartPart] = []
        while true {
            position += delimiter.count
            if position + 1 < bytes.count, bytes[position] == UInt8(ascii: "-"), bytes[position + 1] == UInt8(ascii: "-") {
                return parts
            }
            position = skipLineEnd(bytes, position)
            guard let headerEnd = find([13, 10, 13, 10], in: bytes, from: position) ?? find([10, 10], in: bytes, from: position) else {
                return nil
            }
            let headerText = String(decoding: bytes[position..<headerEnd], as: UTF8.self)
            let contentStart = bytes[headerEnd] == 13 ? headerEnd + 4 : headerEnd + 2
            guard let next = find(delimiter, in: bytes, from: contentStart) else { return nil }
            var contentEnd = next
            if contentEnd > contentStart, bytes[contentEnd - 1] == 10 { contentEnd -= 1 }
            if contentEnd > contentStart, bytes[contentEnd - 1] == 13 { contentEnd -= 1 }
            var part = MultipartPart(name: "", filename: nil, contentType: nil, data: Data(bytes[contentStart..<contentEnd]))
            for line in headerText.split(whereSeparator: { $0 == "\r\n" || $0 == "\n" || $0 == "\r" }) {
                guard let colon = line.firstIndex(of: ":") else { continue }
                let name = line[..<colon].trimmingHTTPWhitespace().lowercased()
                let value = line[line.index(after: colon)...].trimmingHTTPWhitespace()
                if name == "content-type" {
                    part.contentType = value
                } else if name == "content-disposition" {
                    let disposition = MediaType(value)
                    part.name = disposition.parameter("name") ?? ""
                    part.filename = disposition.parameter("filename")
                }
            }
            parts.append(part)
            position = next
        }
    }

    private static func skipLineEnd(_ bytes: [UInt8], _ position: Int) -> Int {
        var position = position
        while position < bytes.count, bytes[position] == UInt8(ascii: " ") || bytes[position] == UInt8(ascii: "\t") { position += 1 }
        if position < bytes.count, bytes[position] == 13 { position += 1 }
        if position < bytes.count, bytes[position] == 10 { position += 1 }
        return position
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard let first = needle.first, needle.count <= haystack.count else { return nil }
        var index = start
        let last = haystack.count - needle.count
        while index <= last {
            if haystack[index] == first {
                var offset = 1
                while offset < needle.count && haystack[index + offset] == needle[offset] { offset += 1 }
                if offset == needle.count { return index }
            }
            index += 1
        }
        return nil
    }
}
