extension String {
    /// `bytes` as text when they are valid UTF-8 (kept byte for byte, a leading BOM included), `nil` otherwise.
    ///
    /// The one place that stands in for `String(validating:as:)`, which needs macOS 15 / iOS 18: before those,
    /// the bytes are checked by ``isValidUTF8(_:)`` and then decoded, which cannot repair anything once they
    /// passed.
    package init?<Bytes: Collection>(validUTF8 bytes: Bytes) where Bytes.Element == UInt8 {
        if #available(Swift6Runtime , *) {
            guard let text = String(validating: bytes, as: UTF8.self) else { return nil }
            self = text
        } else {
            guard Self.isValidUTF8(bytes) else { return nil }
            self = String(decoding: bytes, as: UTF8.self)
        }
    }

    /// Whether `bytes` are well-formed UTF-8 as the standard library's parser defines it (no overlong forms,
    /// surrogates, values above U+10FFFF or truncated sequences): the same verdict as `String(validating:as:)`.
    package static func isValidUTF8<Bytes: Collection>(_ bytes: Bytes) -> Bool where Bytes.Element == UInt8 {
        var iterator = bytes.makeIterator()
        var parser = Unicode.UTF8.ForwardParser()
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid: continue
            case .emptyInput: return true
            case .error: return false
            }
        }
    }
}
