import Foundation
import ServiceKit
import Testing

/// The parser against JSONTestSuite: what RFC 8259 allows is read, what it forbids is an undecodable body,
/// and the rest never crashes.
@Suite struct JSONTestSuiteTests {
    @Test(arguments: JSONTestSuiteCase.accepted)
    func parse_acceptsValidDocument(_ document: JSONTestSuiteCase) {
        #expect(throws: Never.self) { try JSONValue.parse(Data(document.bytes)) }
    }

    @Test(arguments: JSONTestSuiteCase.rejected)
    func parse_rejectsInvalidDocument_sayingWhere(_ document: JSONTestSuiteCase) {
        let error = #expect(throws: WebServiceError.self) { try JSONValue.parse(Data(document.bytes)) }
        #expect(error?.reason == .service(.undecodableBody))
        let location = error?.underlyingError as? JSONParseError
        #expect(location != nil)
        #expect((0...document.bytes.count).contains(location?.byteOffset ?? -1))
    }

    @Test(arguments: JSONTestSuiteCase.eitherWay)
    func parse_implementationDefinedDocument_endsInAValueOrUndecodableBody(_ document: JSONTestSuiteCase) {
        do {
            _ = try JSONValue.parse(Data(document.bytes))
        } catch {
            #expect(error.reason == .service(.undecodableBody))
        }
    }

    @Test func suite_isComplete() {
        // The published suite's test_parsing folder holds 95 y_, 188 n_ and 35 i_ documents.
        #expect(JSONTestSuiteCase.accepted.count == 95)
        #expect(JSONTestSuiteCase.rejected.count == 188)
        #expect(JSONTestSuiteCase.eitherWay.count == 35)
    }
}
