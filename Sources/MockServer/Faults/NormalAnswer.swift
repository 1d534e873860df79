/// The answer a request would have had without faults: the reply to carry out, and the response behind it
/// when there is one (a replayed transport failure has none).
struct NormalAnswer {
    let reply: HTTPReply
    let response: HTTPResponse?
}
