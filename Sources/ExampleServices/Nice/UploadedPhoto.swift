import Foundation

/// A photo the server accepted.
public struct UploadedPhoto: Hashable, Sendable {
    /// The photo's id (`p_981`).
    public var id: String
    /// Where the photo can be fetched.
    public var url: URL

    /// An uploaded photo.
    public init(id: String, url: URL) {
        self.id = id
        self.url = url
    }
}
