import Foundation

/// A body reduced to what matching compares: a JSON document, form fields, multipart parts, or plain bytes.
enum BodyContent: Sendable, Hashable {
    case empty
    case json(CassetteJSON)
    case form([FormField])
    case multipart([MultipartPart])
    case bytes(Data)

    /// Reads a body the way its `Content-Type` says, falling back sensibly when the header lies or is missing:
    /// multipart (any `multipart/*` type) needs its boundary; JSON content types, and any body starting with `{` or `[`, are JSON when
    /// they parse; form-encoded bodies (declared, or undeclared ones that look like `a=1&b=2`) are fields;
    /// everything else is bytes.
    init(_ data: Data, contentType: String?) {
        guard !data.isEmpty else {
            self = .empty
            return
        }
        let mediaType = MediaType(contentType)
        if mediaType.isMultipart, let boundary = mediaType.parameter("boundary"),
            let parts = MultipartPart.parse(data, boundary: boundary)
        {
            self = .multipart(parts)
            return
        }
        let firstByte = data.first { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }
        if mediaType.isJSON || firstByte == UInt8(ascii: "{") || firstByte == UInt8(ascii: "["),
            let value = try? CassetteJSON(parsing: data)
        {
            self = .json(value)
            return
        }
        if mediaType.isFormURLEncoded || (contentType == nil && BodyContent.looksFormEncoded(data)),
            let text = String(validUTF8: data)
        {
            self = .form(FormField.parse(text))
            return
        }
        self = .bytes(data)
    }

    /// A recorded body: inline JSON is JSON whatever the headers say; text and bytes are read like a received body.
    init(_ body: RecordedBody, contentType: String?) {
        switch body.form {
        case .empty: self = .empty
        case .json(let value, _): self = .json(value)
        case .text(let text): self.init(Data(text.utf8), contentType: contentType)
        case .binary(let data): self.init(data, contentType: contentType)
        case .stream(let stream): self.init(stream.data, contentType: contentType)
        }
    }

    /// `a=1&b=2`: printable ASCII without spaces, with an `=` in it.
    private static func looksFormEncoded(_ data: Data) -> Bool {
        data.contains(UInt8(ascii: "=")) && data.allSatisfy { $0 > 0x20 && $0 < 0x7F }
    }
}
