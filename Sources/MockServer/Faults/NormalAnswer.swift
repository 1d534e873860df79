/// The answer a request would have had without faults: the reply to carry out, and the response or
/// stream behind it when there is one (a replayed transport failure has neither).
struct NormalAnswer {
    let reply: HTTPReply
    let response: HTTPResponse?
    var stream: HTTPStream?

    /// The response a fault may damage as a whole: the response, or a stream as one body.
    var wholeResponse: HTTPResponse? { response ?? stream?.wholeResponse }

    /// The status the client will see.
    var status: Int? { response?.status ?? stream?.head.status }
}
