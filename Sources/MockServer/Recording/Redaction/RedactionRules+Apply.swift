import Foundation

/// Redaction of live messages (the journal, the control API, the lines `recorder` prints), through the same
/// verdict as recording (see ``RedactionPass``).
extension RedactionRules {
    /// `request` with every secret header, query parameter, form field and JSON value replaced by
    /// ``placeholder``. Cookie headers keep each cookie's name. Bodies without secrets are returned byte for
    /// byte; a redacted JSON body is written again in its own layout when it has a common one.
    package func redact(_ request: HTTPRequest) -> HTTPRequest {
        var pass = RedactionPass(self)
        var copy = request
        copy.headers = pass.redact(request.headers, side: .request)
        copy.target = pass.redact(target: request.target)
        copy.body =
            pass.redactStructured(request.body, contentType: request.headers["Content-Type"], place: "request body", side: .request)?.data ?? request.body
        return copy
    }

    /// `response` with every secret header and body value replaced by ``placeholder`` (see
    /// ``redact(_:)-(HTTPRequest)``).
    package func redact(_ response: HTTPResponse) -> HTTPResponse {
        var pass = RedactionPass(self)
        var copy = response
        copy.headers = pass.redact(response.headers, side: .response)
        copy.body =
            pass.redactStructured(response.body, contentType: response.headers["Content-Type"], place: "response body", side: .response)?.data ?? response.body
        return copy
    }

    /// Headers with secret values replaced; `Cookie` and `Set-Cookie` keep cookie names and attributes. In
    /// any other header, a URL's secret query parameters get the placeholder (a `Location` to a presigned URL
    /// keeps everything but its signature; see ``redactingURLParameters(in:)``).
    package func redact(_ headers: HTTPHeaders) -> HTTPHeaders {
        var pass = RedactionPass(self)
        return pass.redact(headers, side: .request)
    }

    /// A request target (path and query) with secret query parameter values replaced; the rest of the
    /// target is kept exactly as written.
    package func redact(target: String) -> String {
        var pass = RedactionPass(self)
        return pass.redact(target: target)
    }

    /// A body with secret fields replaced when it is a form (`application/x-www-form-urlencoded`) or JSON
    /// (a JSON media type, or no content type and a body that parses as a JSON object or array). A JSON body
    /// is edited as a value, through the same rules as stored cassettes, and written again only when something
    /// changed: key order and literals kept, in the body's own ``JSONLayout`` when it has one of those, else
    /// compactly. A body without secrets is returned byte for byte.
    package func redact(body: Data, contentType: String?) -> Data {
        var pass = RedactionPass(self)
        return pass.redactStructured(body, contentType: contentType, place: "body", side: .response)?.data ?? body
    }

    /// `text` with the value of every secret query parameter of the URLs written in it replaced by the
    /// placeholder, every other byte kept (see ``URLParametersInText``), and how many were replaced. A field
    /// name the rules redact in a query is redacted in these URLs too: signatures, credentials, tokens.
    func redactingURLParameters(in text: String) -> (text: String, count: Int) {
        URLParametersInText.redacting(text) { verdict(onURLParameter: $0) != nil }
    }

    /// `text` with each of `ranges` (UTF-8 offsets, in order, apart) replaced by the placeholder, or by the
    /// matching one of `replacements` when given (one per range), every other byte kept.
    static func replacing(_ ranges: [Range<Int>], in text: String, with replacements: [String]? = nil) -> String {
        guard !ranges.isEmpty else { return text }
        let bytes = Array(text.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var copied = 0
        for (position, range) in ranges.enumerated() {
            output += bytes[copied..<range.lowerBound]
            output += (replacements?[position] ?? placeholder).utf8
            copied = range.upperBound
        }
        output += bytes[copied...]
        return String(decoding: output, as: UTF8.self)
    }
}
