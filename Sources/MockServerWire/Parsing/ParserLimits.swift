/// The size limits the request parser enforces, taken from ``HTTPServer/Configuration``.
package struct ParserLimits: Sendable {
    var maxRequestLineLength: Int
    var maxHeaderBytes: Int
    var maxHeaderCount: Int
    var maxBodyBytes: Int
    /// The longest chunk-size line (with extensions) accepted in a chunked body.
    var maxChunkLineLength = 4096

    package init(maxRequestLineLength: Int, maxHeaderBytes: Int, maxHeaderCount: Int, maxBodyBytes: Int, maxChunkLineLength: Int = 4096) {
        self.maxRequestLineLength = maxRequestLineLength
        self.maxHeaderBytes = maxHeaderBytes
        self.maxHeaderCount = maxHeaderCount
        self.maxBodyBytes = maxBodyBytes
        self.maxChunkLineLength = maxChunkLineLength
    }

    static let standard = ParserLimits(maxRequestLineLength: 8192, maxHeaderBytes: 32768, maxHeaderCount: 128, maxBodyBytes: 32 << 20)
}
