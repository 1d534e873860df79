import Foundation
import ServiceReplayShared

/// Explains how a received request differs from a recorded one, place by place. Matching itself is decided
/// by ``NormalizedRequest`` equality under a ``WildcardShape``; this only says why two requests do not match.
enum RequestComparison {
    static let placeholder = Cassette.redactionPlaceholder
    /// Displayed values longer than this are shortened with `…`.
    static let displayLimit = 80

    static func differences(recorded: RequestParts, received: RequestParts, rules: PreparedRules) -> [RequestDifference] {
        let left = NormalizedRequest(recorded, rules: rules)
        let right = NormalizedRequest(received, rules: rules)
        let sameBucket = recorded.method == received.method && recorded.path == received.path
        if sameBucket, matches(recorded: left, received: right) { return [] }
        var differences: [RequestDifference] = []
        if recorded.method != received.method {
            differences.append(RequestDifference("method", recorded: recorded.method, received: received.method, weight: 4))
        }
        if recorded.path != received.path {
            differences.append(RequestDifference("path", recorded: recorded.path, received: received.path, weight: 6))
        }
        differences += fieldDifferences(left.query, right.query, prefix: "query ")
        for (position, name) in rules.headerDisplayNames.enumerated() {
            let wanted = left.headers[position]
            let got = right.headers[position]
            let same = wanted.count == got.count && zip(wanted, got).allSatisfy { WildcardShape.value($1, fits: $0) }
            if !same {
                differences.append(RequestDifference("header \(name)", recorded: joined(wanted), received: joined(got)))
            }
        }
        differences += conditionDifferences(left.conditions, right.conditions)
        differences += bodyDifferences(left.body, right.body)
        if differences.isEmpty {
            // Never claim "no difference" for requests that do not match.
            differences.append(RequestDifference("body", recorded: summary(left.body), received: summary(right.body)))
        }
        return differences
    }

    /// The exact matching decision for two normalized requests of the same bucket.
    static func matches(recorded: NormalizedRequest, received: NormalizedRequest) -> Bool {
        WildcardShape(recorded: recorded).apply(to: received) == recorded
    }

    // MARK: fields

    static func fieldDifferences(_ recorded: [FormField], _ received: [FormField], prefix: String) -> [RequestDifference] {
        guard recorded != received else { return [] }
        var names = Set(recorded.map(\.name))
        names.formUnion(received.map(\.name))
        var differences: [RequestDifference] = []
        for name in names.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            var wanted = recorded.filter { $0.name == name }.map(\.value)
            var got = received.filter { $0.name == name }.map(\.value)
            for value in wanted where value != placeholder {
                if let position = got.firstIndex(of: value) {
                    got.remove(at: position)
                    wanted.remove(at: wanted.firstIndex(of: value)!)
                }
            }
            // Each placeholder accepts any one leftover received value.
            while let position = wanted.firstIndex(of: placeholder), !got.isEmpty {
                wanted.remove(at: position)
                got.removeFirst()
            }
            for index in 0..<max(wanted.count, got.count) {
                differences.append(
                    RequestDifference(
                        prefix + name,
                        recorded: index < wanted.count ? JSONWriter.quoted(wanted[index]) : nil,
                        received: index < got.count ? JSONWriter.quoted(got[index]) : nil
                    ))
            }
        }
        return differences
    }

    /// How `received` differs in the conditions `recorded` carried (the only ones compared).
    static func conditionDifferences(_ recorded: RequestConditions, _ received: RequestConditions) -> [RequestDifference] {
        var differences: [RequestDifference] = []
        if !recorded.range.isEmpty, recorded.range != received.range {
            differences.append(RequestDifference("header Range", recorded: joined(recorded.range), received: joined(received.range)))
        }
        if !recorded.msRange.isEmpty, recorded.msRange != received.msRange {
            differences.append(RequestDifference("header x-ms-range", recorded: joined(recorded.msRange), received: joined(received.msRange)))
        }
        if !recorded.ifRange.isEmpty, recorded.ifRange != received.ifRange {
            differences.append(RequestDifference("header If-Range", recorded: joined(recorded.ifRange), received: joined(received.ifRange)))
        }
        if recorded.isConditional, !received.isConditional {
            differences.append(
                RequestDifference(
                    "conditional request", recorded: nil, received: nil,
                    description:
                        "conditional request: recorded with If-None-Match or If-Modified-Since, received without either"))
        }
        return differences
    }

    private static func joined(_ values: [String]) -> String? {
        values.isEmpty ? nil : shortened(JSONWriter.quoted(values.joined(separator: ", ")))
    }

    // MARK: bodies

    static func bodyDifferences(_ recorded: BodyContent, _ received: BodyContent) -> [RequestDifference] {
        switch (recorded, received) {
        case (.empty, .empty):
            return []
        case (.json(let left), .json(let right)):
            var differences: [RequestDifference] = []
            jsonDifferences(left, right, at: .root, into: &differences)
            return differences
        case (.form(let left), .form(let right)):
            return fieldDifferences(left, right, prefix: "form field ")
        case (.multipart(let left), .multipart(let right)):
            return partDifferences(left, right)
        case (.bytes(let left), .bytes(let right)):
            guard left != right else { return [] }
            var receivedText = bytesSummary(right)
            if let first = zip(left, right).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset {
                receivedText += " (first difference at byte \(first))"
            }
            return [RequestDifference("body", recorded: bytesSummary(left), received: receivedText, weight: 2)]
        default:
            return [RequestDifference("body", recorded: summary(recorded), received: summary(received), weight: 4)]
        }
    }

    static func jsonDifferences(_ recorded: CassetteJSON?, _ received: CassetteJSON?, at path: JSONPath, into differences: inout [RequestDifference]) {
        if recorded == .string(placeholder), received != nil { return }
        if case .string(let pattern)? = recorded, case .string(let text)? = received, WildcardShape.value(text, fits: pattern) { return }
        switch (recorded, received) {
        case (.object(let left)?, .object(let right)?):
            var keys = Set(left.keys)
            keys.formUnion(right.keys)
            for key in keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
                jsonDifferences(left[key], right[key], at: path.appending(.key(key)), into: &differences)
            }
        case (.array(let left)?, .array(let right)?):
            for index in 0..<max(left.count, right.count) {
                jsonDifferences(
                    index < left.count ? left[index] : nil, index < right.count ? right[index] : nil,
                    at: path.appending(.index(index)), into: &differences)
            }
        default:
            guard recorded != received else { return }
            differences.append(RequestDifference(path.description, recorded: recorded.map(render), received: received.map(render)))
        }
    }

    static func partDifferences(_ recorded: [MultipartPart], _ received: [MultipartPart]) -> [RequestDifference] {
        var names = Set(recorded.map(\.name))
        names.formUnion(received.map(\.name))
        var differences: [RequestDifference] = []
        for name in names.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            let wanted = recorded.filter { $0.name == name }
            let got = received.filter { $0.name == name }
            for index in 0..<max(wanted.count, got.count) {
                let location = "part \(name.isEmpty ? "(unnamed)" : name)"
                guard index < wanted.count, index < got.count else {
                    differences.append(
                        RequestDifference(
                            location, recorded: index < wanted.count ? bytesSummary(wanted[index].data) : nil,
                            received: index < got.count ? bytesSummary(got[index].data) : nil))
                    continue
                }
                let left = wanted[index]
                let right = got[index]
                if left.filename != right.filename {
                    differences.append(
                        RequestDifference(
                            location + " filename", recorded: left.filename.map(JSONWriter.quoted),
                            received: right.filename.map(JSONWriter.quoted)))
                }
                if left.contentType != right.contentType {
                    differences.append(
                        RequestDifference(
                            location + " content type", recorded: left.contentType.map(JSONWriter.quoted),
                            received: right.contentType.map(JSONWriter.quoted)))
                }
                if left.data != right.data && left.data != WildcardShape.placeholderData {
                    differences.append(RequestDifference(location, recorded: bytesSummary(left.data), received: bytesSummary(right.data)))
                }
            }
        }
        return differences
    }

    // MARK: display

    static func render(_ value: CassetteJSON) -> String {
        shortened(value.compactText)
    }

    static func shortened(_ text: String) -> String {
        guard text.count > displayLimit else { return text }
        return String(text.prefix(displayLimit - 1)) + "…"
    }

    /// Text bodies quoted and shortened, anything else as a byte count.
    static func bytesSummary(_ data: Data) -> String {
        if let text = String(validUTF8: data),
            text.unicodeScalars.allSatisfy({ $0.value >= 0x20 || $0 == "\n" || $0 == "\r" || $0 == "\t" })
        {
            return shortened(JSONWriter.quoted(text))
        }
        return "\(data.count) bytes"
    }

    /// What a body is, for a body-type mismatch: `JSON {...}`, `form fields a=1&b=2`, `multipart with 2 parts`...
    static func summary(_ body: BodyContent) -> String? {
        switch body {
        case .empty: nil
        case .json(let value): "JSON " + render(value)
        case .form(let fields): "form fields " + shortened(fields.map { "\($0.name)=\($0.value)" }.joined(separator: "&"))
        case .multipart(let parts): "multipart with \(parts.count) part\(parts.count == 1 ? "" : "s")"
        case .bytes(let data): bytesSummary(data)
        }
    }
}
