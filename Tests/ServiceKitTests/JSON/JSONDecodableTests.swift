import Foundation
import ServiceKit
import Testing

@Suite struct JSONDecodableTests {
    struct Owner: Decodable, Equatable {
        let displayName: String
        let reputation: Int?

        enum CodingKeys: String, CodingKey {
            case displayName = "display_name"
            case reputation
        }
    }

    struct Question: Decodable, Equatable {
        let id: Int
        let isAnswered: Bool
        let link: URL
        let created: Date
        let tags: [String]
        let owner: Owner
        let score: Int64

        enum CodingKeys: String, CodingKey {
            case id = "question_id", isAnswered = "is_answered", link, created = "creation_date", tags, owner, score
        }
    }

    @Test func decode_readsLenientlyWithTheNamedDateFormat() throws {
        // Given a payload whose numbers arrive as strings and booleans as 1
        let json = JSON([
            "question_id": "77000001", "is_answered": 1, "link": "https://stackoverflow.com/q/1",
            "creation_date": 1_699_990_000, "tags": ["swift"], "score": "3",
            "owner": ["display_name": "Ann", "reputation": 10],
        ])
        // When it is decoded
        let question = try json.decode(Question.self, dateFormat: .secondsSince1970)
        // Then every field is read
        #expect(
            question
                == Question(
                    id: 77_000_001, isAnswered: true, link: URL(string: "https://stackoverflow.com/q/1")!,
                    created: Date(timeIntervalSince1970: 1_699_990_000), tags: ["swift"],
                    owner: Owner(displayName: "Ann", reputation: 10), score: 3))
    }

    @Test func decode_optionalMissing_isNil() throws {
        let owner = try JSON(["display_name": "Ann"]).decode(Owner.self)
        #expect(owner.reputation == nil)
    }

    @Test func decode_missingNestedKey_throwsMissingFieldWithPath() {
        // Given an array whose second element lacks a required key
        let json = JSON(["owners": [["display_name": "Ann"], ["reputation": 1]]])
        struct Page: Decodable { let owners: [Owner] }
        // When it is decoded
        let error = #expect(throws: WebServiceError.self) { try json.decode(Page.self) }
        // Then the path names the element and key
        #expect(error?.reason == .service(.missingField("$.owners[1].display_name")))
    }

    @Test func decode_wrongType_throwsInvalidField() {
        let json = JSON(["display_name": ["first": "Ann"]])
        let error = #expect(throws: WebServiceError.self) { try json.decode(Owner.self) }
        #expect(error?.reason == .service(.invalidField("$.display_name")))
    }

    @Test func decode_integerOutOfRange_throwsInvalidField() {
        let error = #expect(throws: WebServiceError.self) { try JSON(["n": 300]).decode([String: UInt8].self) }
        #expect(error?.reason == .service(.invalidField("$.n")))
    }

    @Test func decode_topLevelArrayAndNestedJSONValue() throws {
        struct Box: Decodable { let raw: JSONValue }
        let boxes = try JSON([["raw": ["a": [1, "x"]]]]).decode([Box].self)
        #expect(boxes.first?.raw == ["a": [1, "x"]])
    }
}
