import Foundation

/// A `multipart/form-data` body (RFC 7578): one text part per parameter, then one part per file, each
/// delimited by `boundary`.
struct MultipartBody {
    let boundary: String

    /// A body with a fresh random boundary, which cannot occur in the parts by any practical chance.
    init(boundary: String = "ServiceKit-" + UUID().uuidString) {
        self.boundary = boundary
    }

    /// The body; throws `.invalidRequest` for a parameter holding an object.
    func encode(
        _ parameters: Parameters, files: [MultipartFile], formatting: ParameterFormatting
    ) throws(WebServiceError) -> EncodedBody {
        var data = Data()
        for pair in try ParameterText.pairs(parameters, formatting: formatting, encoding: .multipart) {
            appendHeader(to: &data, disposition: "form-data; name=\"\(Self.quoted(pair.name))\"", contentType: nil)
            data.append(Data(pair.value.utf8))
            data.append(Data("\r\n".utf8))
        }
        for file in files {
            let disposition = "form-data; name=\"\(Self.quoted(file.name))\"; filename=\"\(Self.quoted(file.filename))\""
            appendHeader(to: &data, disposition: disposition, contentType: file.contentType)
            data.append(file.data)
            data.append(Data("\r\n".utf8))
        }
        data.append(Data("--\(boundary)--\r\n".utf8))
        return EncodedBody(contentType: "multipart/form-data; boundary=\(boundary)", data: data)
    }

    private func appendHeader(to data: inout Data, disposition: String, contentType: String?) {
        var header = "--\(boundary)\r\nContent-Disposition: \(disposition)\r\n"
        if let contentType {
            header += "Content-Type: \(contentType)\r\n"
        }
        header += "\r\n"
        data.append(Data(header.utf8))
    }

    /// Escapes what cannot stand inside a quoted name (HTML's form-data rule: `"` and line breaks).
    private static func quoted(_ text: String) -> String {
        text.replacingOccurrences(of: "\"", with: "%22")
            .replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
    }
}
