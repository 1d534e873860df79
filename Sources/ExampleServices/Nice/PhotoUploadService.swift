import Foundation
import ServiceKit

/// Uploads a photo to the Nice API (`POST /photos`, `multipart/form-data` with a `caption` text part and a
/// `photo` part named `photo.jpg` of type `image/jpeg`). Follow the upload with
/// `client.send(service, uploadProgress: { progress in ... })`.
///
/// Too large a photo arrives as 413 `{"error": "photo_too_large", "message": "Photos must be under 10 MB."}`
/// and ends as `.service(.httpStatus(413, message: "Photos must be under 10 MB."))`. Never retried: it is a POST.
public struct PhotoUploadService: WebService {
    /// The photo's caption.
    public var caption: String
    /// The JPEG bytes, sent as is.
    public var jpegData: Data

    /// An upload of `jpegData` with `caption`.
    public init(caption: String, jpegData: Data) {
        self.caption = caption
        self.jpegData = jpegData
    }

    /// `/photos`.
    public var endpoint: String { "/photos" }
    /// `POST`.
    public var method: HTTPMethod { .post }
    /// A multipart body.
    public var parameterEncoding: ParameterEncoding { .multipart }
    /// `caption`.
    public var parameters: Parameters { ["caption": caption] }
    /// The `photo` part.
    public var files: [MultipartFile] {
        [MultipartFile(name: "photo", filename: "photo.jpg", contentType: "image/jpeg", data: jpegData)]
    }

    /// Reads `id` and `url`, both required.
    public func response(from json: JSON) throws -> UploadedPhoto {
        UploadedPhoto(id: try json["id"].required.string, url: try json["url"].required.url)
    }
}
