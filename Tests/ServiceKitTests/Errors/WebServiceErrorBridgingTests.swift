import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ServiceKit
import Testing

@Suite struct WebServiceErrorBridgingTests {
    @Test func nsError_networkFamily_usesNetworkDomainAndCaseCode() {
        // Given a network-level error wrapping a URLError
        let error: any Error = WebServiceError.network(.timedOut, underlyingError: URLError(.timedOut))
        // When it is bridged
        let nsError = error as NSError
        // Then it carries the network domain, the case code, the sentence and the underlying error
        #expect(nsError.domain == WebServiceError.networkErrorDomain)
        #expect(nsError.code == WebServiceError.Network.timedOut.code)
        #expect(nsError.localizedDescription == "The server did not respond in time. Try again later.")
        let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError
        #expect(underlying?.domain == NSURLErrorDomain)
        #expect(underlying?.code == URLError.Code.timedOut.rawValue)
    }

    @Test func nsError_serviceFamily_usesServiceDomainAndStatus() {
        // Given a service-level error from a 404
        let error: any Error = WebServiceError.service(.httpStatus(404, message: "Not Found"), statusCode: 404)
        // When it is bridged
        let nsError = error as NSError
        // Then it carries the service domain, the case code and the status
        #expect(nsError.domain == WebServiceError.serviceErrorDomain)
        #expect(nsError.code == WebServiceError.Service.httpStatus(404, message: nil).code)
        #expect(nsError.userInfo[WebServiceError.statusCodeKey] as? Int == 404)
    }

    @Test func domains_areDistinct() {
        #expect(WebServiceError.networkErrorDomain != WebServiceError.serviceErrorDomain)
    }

    @Test func codes_areUniqueWithinEachFamily() {
        // Given every network case and one of each service case
        let networkCodes = WebServiceError.Network.allCases.map(\.code)
        let serviceCodes: [Int] = [
            .httpStatus(500, message: nil), .rateLimited(retryAfter: nil), .errorPayload(code: nil, message: nil),
            .undecodableBody, .wrongContentType("text/html"), .missingField("$.a"), .invalidField("$.a"),
            .invalidRequest("A GET request has no body."), .notModified, .preconditionFailed,
        ].map { (failure: WebServiceError.Service) in failure.code }
        // Then no two share a code
        #expect(Set(networkCodes).count == networkCodes.count)
        #expect(Set(serviceCodes).count == serviceCodes.count)
    }

    @Test func equality_comparesReasonOnly() {
        // Given two errors with the same reason but different debugging details
        let first = WebServiceError.network(.connectionLost, underlyingError: URLError(.networkConnectionLost))
        let second = WebServiceError.network(.connectionLost)
        // Then they are equal, and differ from another reason
        #expect(first == second)
        #expect(first.hash == second.hash)
        #expect(first != WebServiceError.network(.timedOut))
    }

    @Test func family_followsReason() {
        #expect(WebServiceError.network(.cancelled).family == .network)
        #expect(WebServiceError.service(.undecodableBody).family == .service)
    }
}

@Suite struct WebServiceErrorDescriptionTests {
    @Test func description_namesTheReasonAndItsSentence() {
        #expect(
            WebServiceError.network(.timedOut).description
                == "WebServiceError(network(ServiceKit.WebServiceError.Network.timedOut)): The server did not respond in time. Try again later.")
    }

    @Test func description_endsWithWhatWentWrongUnderneath_aURLErrorsOwnSentence() {
        let underlying = URLError(.cannotConnectToHost, userInfo: [NSLocalizedDescriptionKey: "WebSockets are not available here."])
        #expect(
            WebServiceError.network(.cannotConnect, underlyingError: underlying).description
                == "WebServiceError(network(ServiceKit.WebServiceError.Network.cannotConnect)): Could not connect to the server. Try again later. "
                + "Underneath: WebSockets are not available here.")
        // What a person reads is unchanged.
        #expect(
            WebServiceError.network(.cannotConnect, underlyingError: underlying).localizedDescription == "Could not connect to the server. Try again later.")
    }

    @Test func description_describesAnyOtherUnderlyingError_asItDescribesItself() {
        struct Refused: Error, CustomStringConvertible { var description: String { "refused with 502" } }
        #expect(WebServiceError.network(.badResponse, underlyingError: Refused()).description.hasSuffix(" Underneath: refused with 502"))
    }
}
