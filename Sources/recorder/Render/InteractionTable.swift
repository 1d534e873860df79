import MockServer

/// What `recorder list` prints: a header line naming the cassette, then one aligned line per interaction
/// with its index, method, target (with its GraphQL operations, `POST /graphql User`), status (or failure
/// kind, or `101 WebSocket`), response body size (a conversation's message count) and duration.
enum InteractionTable {
    static func lines(for cassette: Cassette) -> [String] {
        let header =
            "\(cassette.name): \(counted(cassette.interactions.count, "interaction")), \(cassette.origin.rawValue), "
            + (cassette.upstream.map { "upstream \($0)" } ?? "no upstream")
        var table = TextTable([.right, .left, .left, .left, .right, .right])
        for (index, interaction) in cassette.interactions.enumerated() {
            let outcome: String
            let size: String
            switch interaction.outcome {
            case .response(let response):
                outcome = String(response.status)
                size = counted(response.body.data.count, "byte")
            case .failure(let failure):
                outcome = failure.kind.rawValue
                size = "-"
            case .webSocket(let conversation):
                outcome = "101 WebSocket"
                size = counted(conversation.messages.count, "message")
            }
            let operations = interaction.request.graphQLOperations
            let target = interaction.request.target + (operations.isEmpty ? "" : " " + operations.joined(separator: ","))
            table.rows.append([
                String(index), interaction.request.method, target, outcome, size,
                interaction.durationMs.map { "\($0) ms" } ?? "-",
            ])
        }
        return [header] + table.lines.map { "  " + $0 }
    }
}
