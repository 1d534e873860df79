import Foundation

extension HTTPResponse {
    /// The bytes an ``HTTPServer`` writes for this response to a GET, without the `Date`, `Server` and
    /// `Connection` lines it may add: status line, headers (plus `Content-Length` from the body when the
    /// response has neither `Content-Length` nor `Transfer-Encoding`), an empty line, and the body.
    /// Useful for building truncated answers with ``HTTPReply/raw(_:then:)``.
    var serialized: Data {
        var sink = DataSink()
        _ = ResponseWriter.write(self, framing: ResponseFraming(writesConnectionHeader: false), into: &sink)
        return sink.data
    }

    /// ``serialized`` without the body: status line, headers and the empty line that ends them.
    package var serializedHead: Data {
        var sink = DataSink()
        var framing = ResponseFraming(writesConnectionHeader: false)
        framing.isHEAD = true
        _ = ResponseWriter.write(self, framing: framing, into: &sink)
        return sink.data
    }
}
