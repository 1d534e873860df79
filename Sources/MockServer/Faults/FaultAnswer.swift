/// A fault carried out: the reply to send and, for the journal, the status the client will see (`nil`
/// when the connection breaks before a status line).
struct FaultAnswer {
    let reply: HTTPReply
    let status: Int?
}
