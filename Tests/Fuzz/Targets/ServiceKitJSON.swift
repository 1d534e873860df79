// ServiceKit's JSON layer, as a service meets a response body: any bytes either fail with a WebServiceError
// or parse to a value whose encoding parses back to a value with the same encoding; every lenient accessor
// answers on every node, and decoding into a Decodable type fails with an error rather than a crash.
import Foundation
@testable import ServiceKit

/// A response type with the shapes services decode: optional scalars, nested arrays and objects.
private struct Sample: Decodable {
    struct Item: Decodable {
        let id: Int?
        let name: String?
        let tags: [String]?
    }
    let items: [Item]?
    let total: Double?
    let flag: Bool?
    let when: Date?
}

/// Reads every node through every accessor, at most `budget` nodes.
private func visit(_ json: JSON, budget: inout Int) {
    guard budget > 0 else { return }
    budget -= 1
    _ = (json.string, json.int, json.double, json.bool, json.url, json.date(.iso8601), json.exists)
    if let elements = json.array {
        for element in elements { visit(element, budget: &budget) }
    }
    if let members = json.object {
        for (_, member) in members { visit(member, budget: &budget) }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzServiceKitJSON(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let data = Data(FuzzInput(start, count).bytes)
    let parsed: JSONValue?
    do throws(WebServiceError) {
        parsed = try JSONValue.parse(data)
    } catch {
        return 0
    }
    guard let value = parsed else { return 0 }
    let encoded = value.encoded()
    do throws(WebServiceError) {
        let reparsed = try JSONValue.parse(encoded)
        // Not `reparsed == value`: 3.0 encodes as 3 and comes back an integer, which the accessors treat alike.
        require(reparsed?.encoded() == encoded, "encoding \(String(decoding: encoded, as: UTF8.self)) parses to a value that encodes differently")
    } catch {
        fatalError("fuzz invariant broken: an encoded value does not parse: \(error)")
    }
    var budget = 10_000
    let json = JSON(value)
    visit(json, budget: &budget)
    _ = try? json.decode(Sample.self)
    return 0
}
