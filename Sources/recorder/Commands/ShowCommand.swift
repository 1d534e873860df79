import MockServer

/// `recorder show CASSETTE INDEX [--curl]`.
enum ShowCommand: Command {
    static let help = CommandHelp(
        name: "show",
        summary: "show one interaction in full, or as the curl command that sends its request",
        usage: "recorder show CASSETTE INDEX [--curl]",
        description: """
            Prints the request (request line, headers, body) and the response (status line, headers, body) of
            one interaction. JSON bodies are pretty-printed, text is shown as is, and other bodies as their size
            and a hex dump of their first 64 bytes. With --curl, prints instead the curl command that sends the
            request to the cassette's upstream; redacted values stay <redacted>, to show where a secret goes.
            """,
        arguments: [
            .init(spelling: "CASSETTE", text: "The cassette file."),
            .init(spelling: "INDEX", text: "The interaction's index, from 0 (see `recorder list`)."),
        ],
        options: [.init(spelling: "--curl", text: "Print the request as a curl command (default: show the interaction).")],
        examples: ["recorder show Recordings/login/login.json 0", "recorder show Recordings/login/login.json 0 --curl"]
    )

    static func run(_ arguments: [String], console: Console) throws(RecorderError) -> Int32 {
        let parsed = try Arguments(arguments, options: [], flags: ["curl"], command: "show")
        try parsed.expectPositionals(2...2, what: "a cassette and an interaction index", command: "show")
        let indexText = parsed.positionals[1]
        guard let index = Int(indexText) else { throw .usage("INDEX '\(indexText)' is not a whole number") }
        let cassette = try CassetteLoading.load(parsed.positionals[0])
        guard cassette.interactions.indices.contains(index) else {
            throw .usage(
                cassette.interactions.isEmpty
                    ? "\(cassette.name) has no interactions"
                    : "interaction \(index) does not exist; \(cassette.name) has interactions 0 to \(cassette.interactions.count - 1)")
        }
        let interaction = cassette.interactions[index]
        if parsed.flag("curl") {
            guard let upstream = cassette.upstream, !upstream.isEmpty else {
                throw .failure("\(cassette.name) names no upstream, so its requests have no URL for curl")
            }
            guard interaction.webSocket == nil else {
                throw .failure(
                    "interaction \(index) of \(cassette.name) is a WebSocket conversation, which curl cannot hold; open it with a WebSocket client (Python's websockets, a browser) at the server's ws:// address and path \(interaction.request.target)"
                )
            }
            console.print(CurlCommand.render(interaction.request, upstream: upstream))
        } else {
            console.print(InteractionText.render(interaction, index: index, cassette: cassette))
        }
        return 0
    }
}
