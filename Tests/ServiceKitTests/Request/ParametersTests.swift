import Foundation
import ServiceKit
import Testing

@Suite struct ParametersTests {
    enum Sort: String, ParameterConvertible { case votes }

    @Test func literal_dropsNilOptionalsAndKeepsOrder() {
        // Given optional properties, one of them nil
        let since: Int? = 46
        let perPage: Int? = nil
        let name: String? = "ann"
        // When they build parameters
        let parameters: Parameters = ["since": since, "per_page": perPage, "name": name, "sort": Sort.votes]
        // Then the nil one is gone and the order is kept
        #expect(parameters.names == ["since", "name", "sort"])
        #expect(parameters["since"] == .integer(46))
        #expect(parameters["sort"] == .string("votes"))
        #expect(parameters["per_page"] == nil)
    }

    @Test func set_replacesInPlaceAndNilRemoves() {
        var parameters: Parameters = ["a": 1, "b": 2, "c": 3]
        parameters.set("b", to: "two")
        parameters["c"] = nil
        parameters.set("d", to: true)
        parameters.set("e", to: nil as String?)
        #expect(parameters.names == ["a", "b", "d"])
        #expect(parameters["b"] == .string("two"))
        #expect(parameters["d"] == .bool(true))
    }

    @Test func merge_addsMissingDefaultsAndServiceWins() {
        // Given a service's parameters and a client's common ones sharing a name
        var parameters: Parameters = ["user_id": "42", "token": "service"]
        // When the defaults are merged
        parameters.merge(defaults: ["token": "client", "locale": "en"])
        // Then the service's value stays and the new one is appended
        #expect(parameters == ["user_id": "42", "token": "service", "locale": "en"])
    }

    @Test func convertibles_becomeTheirValues() {
        let date = Date(timeIntervalSince1970: 0)
        let parameters: Parameters = [
            "d": date, "u": URL(string: "https://x.test/a?b=c")!, "n": 2.5,
            "list": ["a", "b"], "empty": [Int](),
        ]
        #expect(parameters["d"] == .date(date))
        #expect(parameters["u"] == .string("https://x.test/a?b=c"))
        #expect(parameters["n"] == .double(2.5))
        #expect(parameters["list"] == .array([.string("a"), .string("b")]))
        #expect(parameters["empty"] == .array([]))
        #expect(!parameters.isEmpty)
        #expect(Parameters().isEmpty)
    }
}
