import ServiceKit
import Testing

/// Every case's sentence, word for word: these are what a person reads.
@Suite struct WebServiceErrorMessageTests {
    static let sentences: [(WebServiceError.Reason, String)] = [
        (.network(.notConnected), "You are not connected to the internet. Check your connection and try again."),
        (.network(.cannotFindHost), "The server could not be found. Check your connection and try again."),
        (.network(.cannotConnect), "Could not connect to the server. Try again later."),
        (.network(.timedOut), "The server did not respond in time. Try again later."),
        (.network(.connectionLost), "The connection was lost before the request finished. Try again."),
        (.network(.badResponse), "The server's response was incomplete or malformed. Try again later."),
        (
            .network(.secureConnectionFailed),
            "A secure connection to the server could not be established. Check the device's date and network, then try again."
        ),
        (.network(.cancelled), "The request was cancelled."),
        (
            .service(.httpStatus(404, message: "Not Found")),
            "The server could not complete the request (HTTP 404): Not Found."
        ),
        (
            .service(.httpStatus(401, message: "The username or password is incorrect.")),
            "The server could not complete the request (HTTP 401): The username or password is incorrect."
        ),
        (.service(.httpStatus(503, message: nil)), "The server had a problem (HTTP 503). Try again later."),
        (.service(.httpStatus(410, message: nil)), "The server could not complete the request (HTTP 410)."),
        (.service(.rateLimited(retryAfter: 1)), "Too many requests were sent to the server. Try again in 1 second."),
        (.service(.rateLimited(retryAfter: 2)), "Too many requests were sent to the server. Try again in 2 seconds."),
        (.service(.rateLimited(retryAfter: 0.2)), "Too many requests were sent to the server. Try again in 1 second."),
        (.service(.rateLimited(retryAfter: 150)), "Too many requests were sent to the server. Try again in 3 minutes."),
        (.service(.rateLimited(retryAfter: 81732)), "Too many requests were sent to the server. Try again in 23 hours."),
        (
            .service(.rateLimited(retryAfter: nil)),
            "Too many requests were sent to the server. Wait a moment and try again."
        ),
        (
            .service(.errorPayload(code: "bad_parameter", message: "site is required")),
            "The service reported an error: site is required."
        ),
        (.service(.errorPayload(code: "no_method", message: nil)), "The service reported an error (no_method)."),
        (.service(.errorPayload(code: nil, message: nil)), "The service reported an error."),
        (
            .service(.undecodableBody),
            "The server's response could not be read. Try again later, or update the app if this keeps happening."
        ),
        (
            .service(.wrongContentType("text/html")),
            "The server answered with text/html instead of JSON. Try again later, or update the app if this keeps happening."
        ),
        (
            .service(.missingField("$.items[3].owner.display_name")),
            "The server's response is missing the field $.items[3].owner.display_name. Try again later, or update the app if this keeps happening."
        ),
        (
            .service(.invalidField("$.created_at")),
            "The server's response has an unexpected value in the field $.created_at. Try again later, or update the app if this keeps happening."
        ),
        (
            .service(.invalidRequest("A GET request has no body, but the service encodes its parameters as .json; encode them as .query.")),
            "The app could not prepare this request: A GET request has no body, but the service encodes its parameters as .json; encode them as .query. Update the app if this keeps happening."
        ),
        (.service(.notModified), "The server has nothing newer than the copy already loaded."),
        (
            .service(.preconditionFailed),
            "The item on the server is no longer the version this change was based on. Reload it, then try again."
        ),
        (
            .service(.invalidRequest("no sentence")),
            "The app could not prepare this request: no sentence. Update the app if this keeps happening."
        ),
    ]

    @Test(arguments: sentences)
    func localizedDescription_isTheCaseSentence(reason: WebServiceError.Reason, sentence: String) {
        // Given an error for the case
        let error = WebServiceError(reason)
        // Then both the LocalizedError and the NSError views read the same sentence
        #expect(error.errorDescription == sentence)
        #expect(error.localizedDescription == sentence)
    }

    @Test func table_coversEveryNetworkCase() {
        // Given the network cases named in the table
        let covered = Set(
            Self.sentences.compactMap { reason, _ -> WebServiceError.Network? in
                if case .network(let failure) = reason { return failure }
                return nil
            })
        // Then none is missing
        #expect(covered == Set(WebServiceError.Network.allCases))
    }
}
