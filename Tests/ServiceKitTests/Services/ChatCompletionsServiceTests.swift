import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ServiceKit
import ExampleServices
import Testing

@Suite struct ChatCompletionsServiceTests {
    private func client(_ transport: StreamingTransport) -> WebServiceClient {
        WebServiceClient(
            baseURL: URL(string: "https://api.openai.test/v1")!,
            configuration: .init(headers: ["Authorization": "Bearer sk-test"]), transport: transport)
    }

    private static func chunk(_ delta: String, finish: String? = nil) -> String {
        let reason = finish.map { "\"\($0)\"" } ?? "null"
        return
            #"data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"gpt-4o-mini","choices":[{"index":0,"delta":\#(delta),"finish_reason":\#(reason)}]}"#
            + "\n\n"
    }

    @Test func request_isAStreamingPOSTWithModelMessagesAndStreamTrue() async throws {
        let transport = StreamingTransport()
        transport.end()
        let service = ChatCompletionsService(
            model: "gpt-4o-mini", messages: [.system("Be brief."), .user("Hi")],
            temperature: 0.5)
        var iterator = client(transport).events(of: service).makeAsyncIterator()
        _ = try? await iterator.next()
        let request = try #require(transport.requests.first)
        #expect(request.httpMethod == "POST")
        #expect(request.url?.absoluteString == "https://api.openai.test/v1/chat/completions")
        #expect(request.value(forHTTPHeaderField: "Accept") == "text/event-stream")
        #expect(request.value(forHTTPHeaderField: "Authorization") == "Bearer sk-test")
        #expect(request.value(forHTTPHeaderField: "Content-Type") == "application/json")
        let body = try #require(request.httpBody.flatMap { try? JSONValue.parse($0) })
        #expect(
            body == [
                "model": "gpt-4o-mini", "stream": true, "temperature": 0.5,
                "messages": [["role": "system", "content": "Be brief."], ["role": "user", "content": "Hi"]],
            ])
    }

    @Test func deltas_assembleTheAnswer_untilDONE() async throws {
        let transport = StreamingTransport()
        transport.send(Self.chunk(#"{"role":"assistant","content":""}"#) + Self.chunk(#"{"content":"Hello"}"#))
        transport.send(Self.chunk(#"{"content":" there"}"#) + Self.chunk("{}", finish: "stop") + "data: [DONE]\n\n")
        var deltas: [ChatCompletionDelta] = []
        for try await delta in client(transport).events(of: ChatCompletionsService(model: "gpt-4o-mini", messages: [.user("Hi")])) {
            deltas.append(delta)
        }
        #expect(deltas.compactMap(\.content).joined() == "Hello there")
        #expect(deltas.first?.role == "assistant")
        #expect(deltas.last?.finishReason == "stop")
        #expect(Set(deltas.map(\.id)) == ["chatcmpl-1"])
        #expect(deltas.first?.model == "gpt-4o-mini")
    }

    @Test func errorPayloadMidStream_isServiceLevel_afterTheDeltas() async {
        let transport = StreamingTransport()
        transport.send(Self.chunk(#"{"content":"Hel"}"#))
        transport.send(
            #"data: {"error":{"message":"The server had an error while processing your request.","type":"server_error","param":null,"code":null}}"# + "\n\n")
        var contents: [String] = []
        let error = await #expect(throws: WebServiceError.self) {
            for try await delta in client(transport).events(of: ChatCompletionsService(model: "m", messages: [.user("Hi")])) {
                contents.append(delta.content ?? "")
            }
        }
        #expect(contents == ["Hel"])
        #expect(
            error?.reason
                == .service(
                    .errorPayload(
                        code: "server_error",
                        message: "The server had an error while processing your request.")))
    }

    @Test func streamEndingWithoutDONE_isConnectionLost() async {
        let transport = StreamingTransport()
        transport.send(Self.chunk(#"{"content":"Hel"}"#))
        transport.end()
        var contents: [String] = []
        let error = await #expect(throws: WebServiceError.self) {
            for try await delta in client(transport).events(of: ChatCompletionsService(model: "m", messages: [.user("Hi")])) {
                contents.append(delta.content ?? "")
            }
        }
        #expect(contents == ["Hel"])
        #expect(error?.reason == .network(.connectionLost))
    }

    @Test func chunkWithoutID_isMissingField() async {
        let transport = StreamingTransport()
        transport.send(#"data: {"choices":[]}"# + "\n\n")
        let error = await #expect(throws: WebServiceError.self) {
            for try await _ in client(transport).events(of: ChatCompletionsService(model: "m", messages: [])) {}
        }
        #expect(error?.reason == .service(.missingField("$.id")))
    }
}
