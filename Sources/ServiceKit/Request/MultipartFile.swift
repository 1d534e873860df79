import Foundation

/// A file part of a `multipart/form-data` body.
public struct MultipartFile: Hashable, Sendable {
    /// The form field's name (`photo`).
    public var name: String
    /// The file name the server sees (`photo.jpg`).
    public var filename: String
    /// The part's media type (`image/jpeg`).
    public var contentType: String
    /// The file's bytes.
    public var data: Data

    /// A file part; nothing is validated, the server is the judge of names and types.
    public init(name: String, filename: String, contentType: String, data: Data) {
        self.name = name
        self.filename = filename
        self.contentType = contentType
        self.data = data
    }
}
