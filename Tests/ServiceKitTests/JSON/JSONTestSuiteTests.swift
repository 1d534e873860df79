import Foundation
import ServiceKit
import Testing

/// The parser against JSONTestSuite: what RFC 8259 allows is read, what it forbids is an undecodable body,
/// and the rest never crashes.
@Suite struct JSONTestSuiteTests {
    @Test(arguments: JSONTestSuiteCase.accepted)
    func parse_acceptsValidDocument_readingTheSameValueAsFoundation(_ document: JSONTestSuiteCase) throws {
        let parsed = try JSONValue.parse(Data(document.bytes))
        if let expected = Self.whereFoundationDiffers[document.name] {
            #expect(parsed == expected)
            return
        }
        // Foundation's decoder is the independent reference; nulls are dropped as ServiceKit drops them.
        let reference = try JSONDecoder().decode(ReferenceJSON.self, from: Data(document.bytes)).withoutNulls
        #expect(ReferenceJSON.same(parsed, reference), "parsed \(String(describing: parsed)), Foundation read \(String(describing: reference))")
    }

    /// The accepted documents Foundation's decoder reads differently, with the value ServiceKit gives: it cannot
    /// read `0e1` as a number, and it keeps the first of two equal keys where ServiceKit, like `JSON.parse`,
    /// keeps the last.
    static let whereFoundationDiffers: [String: JSONValue] = [
        "y_number_0e1": [0.0],
        "y_object_duplicated_key": ["a": "c"],
    ]

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

/// Any JSON value as Foundation's `JSONDecoder` reads it, nulls kept: the reference the accepted documents are
/// compared with.
private indirect enum ReferenceJSON: Decodable {
    case null, bool(Bool), number(Double), string(String), array([ReferenceJSON]), object([String: ReferenceJSON])

    init(from decoder: any Decoder) throws {
        if let container = try? decoder.singleValueContainer() {
            if container.decodeNil() { self = .null; return }
            if let value = try? container.decode(Bool.self) { self = .bool(value); return }
            if let value = try? container.decode(Double.self) { self = .number(value); return }
            if let value = try? container.decode(String.self) { self = .string(value); return }
        }
        if var items = try? decoder.unkeyedContainer() {
            var elements: [ReferenceJSON] = []
            while !items.isAtEnd { elements.append(try items.decode(ReferenceJSON.self)) }
            self = .array(elements)
            return
        }
        let members = try decoder.container(keyedBy: AnyKey.self)
        let pairs = try members.allKeys.map { ($0.stringValue, try members.decode(ReferenceJSON.self, forKey: $0)) }
        self = .object(Dictionary(pairs, uniquingKeysWith: { _, last in last }))
    }

    /// The value with null members and elements removed, or `nil` for a bare `null`.
    var withoutNulls: ReferenceJSON? {
        switch self {
        case .null: nil
        case .array(let elements): .array(elements.compactMap(\.withoutNulls))
        case .object(let members): .object(members.compactMapValues(\.withoutNulls))
        default: self
        }
    }

    /// Whether ServiceKit's value equals the reference; numbers compare by value, whichever case holds them.
    static func same(_ value: JSONValue?, _ reference: ReferenceJSON?) -> Bool {
        switch (value, reference) {
        case (nil, nil): true
        case (.string(let a)?, .string(let b)?): a == b
        case (.bool(let a)?, .bool(let b)?): a == b
        case (.integer(let a)?, .number(let b)?): Double(a) == b
        case (.double(let a)?, .number(let b)?): a == b
        case (.array(let a)?, .array(let b)?): a.count == b.count && zip(a, b).allSatisfy { same($0, $1) }
        case (.object(let a)?, .object(let b)?): a.count == b.count && a.allSatisfy { key, value in b[key].map { same(value, $0) } ?? false }
        default: false
        }
    }

    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
