import Foundation
import ServiceReplayShared

extension HARDocument {
    /// Decodes a HAR document from the bytes of its file; `source` names the file in errors.
    ///
    /// Throws ``MockServerError``: `syntax` with the line and column for malformed JSON, `invalidField` naming the
    /// field's path (`log.entries[3].request.url`) for anything missing or ill-typed. Unknown fields are
    /// ignored, as HAR's extension fields require.
    init(jsonData data: Data, source: String? = nil) throws(MockServerError) {
        // The syntax is checked by MockServer's own parser first: it says where the JSON breaks, and
        // Foundation's recursive scanner then only ever sees valid JSON at most 512 levels deep (under
        // AddressSanitizer, locating its error at 513 levels crashed the process).
        do throws(JSONParseError) {
            _ = try CassetteJSON(parsing: data)
        } catch {
            throw MockServerError(code: .syntax, reason: MockServerError.invalidJSONFile(error)).locatedIfKnown(source)
        }
        do {
            self = try JSONDecoder().decode(HARDocument.self, from: data)
        } catch let error as DecodingError {
            throw HARDocument.describe(error).locatedIfKnown(source)
        } catch {
            throw MockServerError(code: .syntax, file: source, reason: "not a HAR archive (\(error.localizedDescription))")
        }
    }

    /// Loads the HAR document at `url`; errors name the file as given (`url.relativePath`). Throws
    /// ``MockServerError`` `fileSystem` when it cannot be read, and everything ``init(jsonData:source:)`` throws.
    package static func load(from url: URL) throws(MockServerError) -> HARDocument {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw MockServerError(code: .fileSystem, file: url.relativePath, reason: "cannot read the file (\(Cassette.reason(of: error)))")
        }
        return try HARDocument(jsonData: data, source: url.relativePath)
    }

    /// The document as pretty-printed JSON with sorted keys and unescaped slashes (stable, diffable output).
    /// Throws ``MockServerError`` `invalidField` when a number is not finite, which JSON cannot hold.
    func encoded() throws(MockServerError) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            return try encoder.encode(self)
        } catch {
            throw MockServerError(code: .invalidField, reason: "cannot write the archive: a time is not a finite number")
        }
    }

    /// Writes the document to `url` atomically, exactly as ``Cassette/save(to:overwrite:)`` writes cassettes.
    /// Throws ``MockServerError`` `fileExists` when `url` exists and `overwrite` is false (the file is left
    /// untouched), `fileSystem` when the folder is missing or not writable.
    package func save(to url: URL, overwrite: Bool = false) throws(MockServerError) {
        let data = try encoded()
        do throws(MockServerError) {
            try AtomicFile.write(data, to: url, overwrite: overwrite)
        } catch {
            let code: MockServerError.Code = error.code == .fileExists ? .fileExists : .fileSystem
            throw MockServerError(code: code, file: url.relativePath, reason: error.code == .fileExists ? "the file already exists" : error.reason)
        }
    }

    private static func describe(_ error: DecodingError) -> MockServerError {
        func path(_ keys: [any CodingKey]) -> String {
            var text = ""
            for key in keys {
                if let index = key.intValue {
                    text += "[\(index)]"
                } else {
                    text += (text.isEmpty ? "" : ".") + key.stringValue
                }
            }
            return text
        }
        func kind(_ type: Any.Type) -> String {
            if type == String.self { return "a string" }
            if type == Int.self || type == Double.self { return "a number" }
            if "\(type)".hasPrefix("Array") { return "an array" }
            return "an object"
        }
        switch error {
        case .keyNotFound(let key, let context):
            return MockServerError(code: .invalidField, reason: "\(path(context.codingPath + [key])): the field is missing")
        case .typeMismatch(let type, let context):
            return MockServerError(code: .invalidField, reason: "\(path(context.codingPath)): expected \(kind(type))")
        case .valueNotFound(let type, let context):
            return MockServerError(code: .invalidField, reason: "\(path(context.codingPath)): expected \(kind(type)), found null")
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            return MockServerError(code: .syntax, reason: "not a HAR archive: \(context.debugDescription)")
        case .dataCorrupted(let context):
            return MockServerError(code: .invalidField, reason: "\(path(context.codingPath)): \(context.debugDescription)")
        @unknown default:
            return MockServerError(code: .invalidField, reason: "not a HAR archive")
        }
    }
}

extension MockServerError {
    fileprivate func locatedIfKnown(_ file: String?) -> MockServerError {
        file.map(located(in:)) ?? self
    }
}
