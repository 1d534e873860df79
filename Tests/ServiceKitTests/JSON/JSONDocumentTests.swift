import Foundation
import ServiceKit
import Testing

/// A response's JSON is read straight from the body's bytes; it must read exactly as the same document
/// built as a ``JSONValue`` does.
@Suite struct JSONDocumentTests {
    private func responseJSON(_ text: String) throws -> JSON {
        let reply = RawResponse(statusCode: 200, headers: ["Content-Type": "application/json"], body: Data(text.utf8))
        return try #require(reply.json)
    }

    @Test func value_isTheSameTreeAsParse() throws {
        // Given a document with every kind of value, nulls, escapes and nesting
        let text =
            #"{"s": "caf\u00e9 \"q\"", "i": -42, "d": 2.5e3, "t": true, "f": false, "n": null,"#
            + #" "a": [1, null, {"x": [[], {}]}, "é"], "o": {"k": "v", "gone": null}}"#
        // When it is read through a response and parsed as a value
        let json = try responseJSON(text)
        // Then both give the same tree
        #expect(json.value == (try JSONValue.parse(Data(text.utf8))))
    }

    @Test func subscripts_findMembersAndElements_acrossNestedContainers() throws {
        let json = try responseJSON(#"{"items": [{"skip": [1, [2, 3], {"deep": 4}]}, {"id": "17"}], "n": null}"#)
        #expect(json["items"][1]["id"].int == 17)
        #expect(json["items"][0]["skip"][2]["deep"].int == 4)
        #expect(!json["items"][2].exists)
        #expect(!json["items"][-1].exists)
        #expect(!json["n"].exists)
        #expect(!json["items"]["id"].exists)
        #expect(!json["items"][1]["id"][0].exists)
    }

    @Test func subscript_matchesEscapedMemberNames_andKeepsTheLastRepeatedKey() throws {
        let json = try responseJSON(#"{"a\u0062": 1, "dup": 1, "dup": 2, "\u00e9t\u00e9": "summer"}"#)
        #expect(json["ab"].int == 1)
        #expect(json["dup"].int == 2)
        #expect(json["été"].string == "summer")
        #expect(json.object?.keys.sorted() == ["ab", "dup", "été"])
    }

    @Test func accessors_readLeniently_andNameTheKeyPath() throws {
        let json = try responseJSON(#"{"users": [{"id": "7", "admin": 1, "score": 2.0}, {"admin": "nope"}]}"#)
        let users = try json["users"].required.array
        #expect(users[0]["id"].int == 7)
        #expect(users[0]["admin"].bool == true)
        #expect(users[0]["score"].int == 2)
        #expect(users[0].path.description == "$.users[0]")
        #expect(throws: WebServiceError.service(.missingField("$.users[1].id"))) { try users[1]["id"].required.int }
        #expect(throws: WebServiceError.service(.invalidField("$.users[1].admin"))) { try users[1]["admin"].required.bool }
        #expect(throws: WebServiceError.service(.invalidField("$.users"))) { try json["users"].required.string }
    }

    struct User: Decodable, Equatable {
        let id: Int
        let tags: [String]
        let owner: Owner?
    }

    struct Owner: Decodable, Equatable {
        let name: String
    }

    @Test func decode_readsFromTheBytes_andNamesTheFailingKeyPath() throws {
        let json = try responseJSON(#"[{"id": "1", "tags": ["a"], "owner": {"name": "Ann"}}, {"id": 2, "tags": [], "owner": {}}]"#)
        #expect(throws: WebServiceError.service(.missingField("$[1].owner.name"))) { try json.decode([User].self) }
        let first = try json[0].decode(User.self)
        #expect(first == User(id: 1, tags: ["a"], owner: Owner(name: "Ann")))
    }
}
