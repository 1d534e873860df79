import Foundation
import ServiceReplayShared

/// Compares a recorded answer with the live one by shape, never by value: status (exact code and class),
/// `Content-Type`, the JSON shape at every path (see ``JSONShape``), a stream's event names and the shape
/// of each event's JSON data, and the presence of the headers asked for. Timestamps, IDs and counts change
/// on every call, so values are not compared: that is what keeps the report quiet.
///
/// Used by `recorder drift` and by the `swift test` drift mode, so both word every change the same way.
package enum DriftComparison {
    /// Every change from `recorded` to `live`, in this order: status, `Content-Type`, the headers named in
    /// `headerFields` (by presence), then the body. The body is compared only when the status class and
    /// the content type are unchanged, since a different class (an error page for a resource) or media type
    /// has a different body by nature. The answer to a GraphQL request (`graphQL`) is also checked for errors the
    /// recording did not have (see ``graphQLErrorChanges(recorded:live:)``).
    package static func changes(recorded: RecordedResponse, live: HTTPResponse, headerFields: [String] = [], graphQL: Bool = false) -> [DriftChange] {
        var changes: [DriftChange] = []
        let recordedClass = recorded.status / 100, liveClass = live.status / 100
        if recorded.status != live.status {
            changes.append(
                recordedClass == liveClass
                    ? DriftChange(.additive, "status", recorded: "\(recorded.status)", live: "\(live.status)", kind: "same class")
                    : DriftChange(
                        .breaking, "status", recorded: "\(recorded.status)", live: "\(live.status)",
                        kind: "class \(recordedClass)xx → \(liveClass)xx"))
        }
        let recordedType = MediaType(recorded.headers["Content-Type"]), liveType = MediaType(live.headers["Content-Type"])
        if recordedType.essence != liveType.essence {
            changes.append(
                DriftChange(
                    .breaking, "Content-Type", recorded: recordedType.essence.isEmpty ? "none" : recordedType.essence,
                    live: liveType.essence.isEmpty ? "none" : liveType.essence, kind: "content type changed"))
        }
        for name in headerFields {
            switch (recorded.headers.contains(name), live.headers.contains(name)) {
            case (true, false): changes.append(DriftChange(.breaking, "header \(name)", recorded: "present", live: "missing", kind: "header removed"))
            case (false, true): changes.append(DriftChange(.additive, "header \(name)", recorded: "missing", live: "present", kind: "header added"))
            default: break
            }
        }
        guard recordedClass == liveClass, recordedType.essence == liveType.essence else { return changes }
        if recordedType.isEventStream {
            changes += eventChanges(recorded: recorded.body.data, live: live.body)
        } else if recordedType.isJSON, let before = try? CassetteJSON(parsing: recorded.body.data) {
            if let after = try? CassetteJSON(parsing: live.body) {
                let errors = graphQL ? graphQLErrorChanges(recorded: before, live: after) : []
                changes += errors
                // The errors named above are the change at `$.errors`: its shape would only say so again.
                changes += shapeChanges(recorded: JSONShape(before), live: JSONShape(after)).filter { change in
                    errors.isEmpty || !(change.place == "$.errors" || change.place.hasPrefix("$.errors."))
                }
            } else {
                changes.append(
                    DriftChange(
                        .breaking, "$", recorded: describe(JSONShape(before).kinds[.root] ?? []), live: "not JSON",
                        kind: "body no longer JSON"))
            }
        }
        return changes
    }

    /// The changes from `recorded` to `live`, path by path in sorted order, each under `prefix` (an event's
    /// name). A path is reported removed or added only where the other side can say what is there (see
    /// ``JSONShape``), so a changed object or an empty list is one change, not one per field below it.
    package static func shapeChanges(recorded: JSONShape, live: JSONShape, prefix: String = "") -> [DriftChange] {
        var changes: [DriftChange] = []
        let paths = Set(recorded.kinds.keys).union(live.kinds.keys).map { (spelled: $0.description, path: $0) }
        for (spelled, path) in paths.sorted(by: { $0.spelled < $1.spelled }) {
            let place = prefix + spelled
            switch (recorded.kinds[path], live.kinds[path]) {
            case (let before?, nil):
                if live.isKnownPlace(path) {
                    changes.append(DriftChange(.breaking, place, recorded: describe(before), live: "missing", kind: "field removed"))
                }
            case (nil, let after?):
                if recorded.isKnownPlace(path) {
                    changes.append(DriftChange(.additive, place, recorded: "missing", live: describe(after), kind: "field added"))
                }
            case (let before?, let after?):
                let beforeValues = before.subtracting([.null]), afterValues = after.subtracting([.null])
                if !beforeValues.isEmpty, !afterValues.isEmpty, !afterValues.isSubset(of: beforeValues) {
                    changes.append(DriftChange(.breaking, place, recorded: describe(beforeValues), live: describe(afterValues), kind: "type changed"))
                }
                if after.contains(.null), !before.contains(.null), !beforeValues.isEmpty {
                    changes.append(
                        DriftChange(
                            .breaking, place, recorded: describe(beforeValues), live: "null",
                            kind: "null where the recording had a value"))
                } else if beforeValues.isEmpty, !afterValues.isEmpty {
                    changes.append(
                        DriftChange(
                            .additive, place, recorded: "null", live: describe(afterValues),
                            kind: "a value where the recording had null"))
                }
            case (nil, nil):
                break
            }
        }
        return changes
    }

    /// The errors a live GraphQL answer reports where the recorded answer reported none, each breaking: a client
    /// that read the recording's data gets an error there now. Each is placed at the path of `data` its `path`
    /// names (`["user", "login"]` is `$.data.user.login`), or at `$.errors` when it names none, with what the
    /// recording had there and the error's message. A recording that had errors too is compared by shape alone.
    static func graphQLErrorChanges(recorded: CassetteJSON, live: CassetteJSON) -> [DriftChange] {
        guard case .array(let errors)? = live["errors"], !errors.isEmpty else { return [] }
        if case .array(let before)? = recorded["errors"], !before.isEmpty { return [] }
        let shape = JSONShape(recorded)
        var changes: [DriftChange] = []
        for error in errors {
            let message = RequestComparison.shortened(JSONWriter.quoted(error["message"]?.stringValue ?? ""))
            var place = JSONPath.root.appending(.key("errors"))
            var shapePlace = place
            if case .array(let steps)? = error["path"], !steps.isEmpty {
                place = JSONPath.root.appending(.key("data"))
                shapePlace = place
                for step in steps {
                    switch step {
                    case .number(let number):
                        place = place.appending(.index(number.intValue ?? 0))
                        shapePlace = shapePlace.appending(.anyIndex)
                    default:
                        let key = JSONPath.Component.key(step.stringValue ?? step.compactText)
                        place = place.appending(key)
                        shapePlace = shapePlace.appending(key)
                    }
                }
            }
            let had = shape.kinds[shapePlace].map(describe) ?? "no error"
            let change = DriftChange(.breaking, place.description, recorded: had, live: "error \(message)", kind: "GraphQL error where the recording had none")
            if !changes.contains(change) { changes.append(change) }
        }
        return changes
    }

    /// The changes between two server-sent event streams: event names no longer sent (breaking) or new
    /// (additive), then, per name, the shape of the events' data (the union over every event of that name;
    /// data that is not JSON has the kind `text`). Events without an `event` field are named `message`, as
    /// the standard dispatches them.
    static func eventChanges(recorded: Data, live: Data) -> [DriftChange] {
        let before = eventShapes(recorded), after = eventShapes(live)
        var changes: [DriftChange] = []
        for name in Set(before.keys).union(after.keys).sorted() {
            switch (before[name], after[name]) {
            case (.some, nil): changes.append(DriftChange(.breaking, "event \(name)", recorded: "sent", live: "missing", kind: "event no longer sent"))
            case (nil, .some): changes.append(DriftChange(.additive, "event \(name)", recorded: "missing", live: "sent", kind: "event added"))
            case (let old?, let new?): changes += shapeChanges(recorded: old, live: new, prefix: "event \(name) ")
            case (nil, nil): break
            }
        }
        return changes
    }

    /// Each event name in `stream` with the union of its events' data shapes.
    private static func eventShapes(_ stream: Data) -> [String: JSONShape] {
        var shapes: [String: JSONShape] = [:]
        // Read as a client reads it; an unterminated last event is not dispatched.
        var parser = ServerSentEventParser()
        for event in parser.feed(stream) {
            let shape = (try? CassetteJSON(parsing: event.data)).map { JSONShape($0) } ?? JSONShape(root: .text)
            shapes[event.type, default: JSONShape()].formUnion(shape)
        }
        return shapes
    }

    /// `string`, or `number or string` for a path that held several kinds.
    static func describe(_ kinds: Set<JSONShape.Kind>) -> String {
        kinds.sorted().map(\.rawValue).joined(separator: " or ")
    }
}
