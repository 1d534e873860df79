import Foundation
import ServiceKit
import Testing

@Suite struct RequiredJSONTests {
    @Test func required_present_returnsValue() throws {
        let json = JSON(["id": "17", "count": "3", "ok": 1])
        #expect(try json["id"].required.string == "17")
        #expect(try json["count"].required.int == 3)
        #expect(try json["ok"].required.bool == true)
    }

    @Test func required_missingDeepField_namesFullKeyPath() {
        // Given four items whose last owner has no display name
        let owner: JSONValue = ["display_name": "Ann"]
        let json = JSON(["items": [["owner": owner], ["owner": owner], ["owner": owner], ["owner": ["user_type": "does_not_exist"]]]])
        // When the mapping requires it
        let error = #expect(throws: WebServiceError.self) {
            try json["items"][3]["owner"]["display_name"].required.string
        }
        // Then the error names the key path a person can find in the payload
        #expect(error?.reason == .service(.missingField("$.items[3].owner.display_name")))
    }

    @Test func required_elementOfMappedArray_namesIndex() {
        // Given an array mapped element by element
        let json = JSON(["items": [["id": 1], ["name": "no id"]]])
        // When each element requires an id
        let error = #expect(throws: WebServiceError.self) {
            try json["items"].required.array.map { try $0["id"].required.int }
        }
        // Then the failing element's index is in the path
        #expect(error?.reason == .service(.missingField("$.items[1].id")))
    }

    @Test func required_presentButUnreadable_isInvalidField() {
        let json = JSON(["count": "many", "link": 5])
        let count = #expect(throws: WebServiceError.self) { try json["count"].required.int }
        #expect(count?.reason == .service(.invalidField("$.count")))
        let link = #expect(throws: WebServiceError.self) { try json["link"].required.url }
        #expect(link?.reason == .service(.invalidField("$.link")))
    }

    @Test func required_date_readsWithFormatOrThrows() throws {
        let json = JSON(["at": 1_699_990_000, "bad": "yesterday"])
        #expect(try json["at"].required.date(.secondsSince1970) == Date(timeIntervalSince1970: 1_699_990_000))
        let error = #expect(throws: WebServiceError.self) { try json["bad"].required.date(.iso8601) }
        #expect(error?.reason == .service(.invalidField("$.bad")))
    }
}
