import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// How the platform's `URLSession` misbehaves in ways the fault matrix and its tests must both know: one
/// place for each condition, so that a guard in the library and the same guard in a test cannot disagree.
package enum URLSessionQuirks {
    /// FoundationNetworking, the `URLSession` of Linux and Windows, traps ("Transfer completed, but there's
    /// no response", swift-corelibs-foundation issue 5285) when a reply's header block is cut short, which
    /// kills the process. Darwin's reports the connection as lost or the reply as bad.
    package static let trapsOnTruncatedHeaders: Bool = {
        #if canImport(FoundationNetworking)
        true
        #else
        false
        #endif
    }()

    /// Whether a `URLProtocol` can be handed an upload task with neither `httpBody` nor `httpBodyStream`:
    /// FoundationNetworking keeps the body of `uploadTask(with:from:)` and `uploadTask(with:fromFile:)` where a
    /// protocol cannot read it. Darwin's URLSession gives the protocol the body as `httpBodyStream` (by reading
    /// Apple's documentation and the stubbing libraries that rely on it; not run here).
    package static let hidesUploadBodies: Bool = {
        #if canImport(FoundationNetworking)
        true
        #else
        false
        #endif
    }()

    /// The name of the `URLSession` in use, for sentences about what it cannot do.
    package static let sessionName: String = {
        #if canImport(FoundationNetworking)
        "FoundationNetworking (Linux)"
        #else
        "Apple's URLSession"
        #endif
    }()

    /// The `allHeaderFields` the platform's `URLSession` makes of a response's header lines: a repeated field's
    /// values joined with ", " in order, under the name of its first line. FoundationNetworking joins only
    /// lines whose names are spelled alike (seen here: `X-A` and `x-a` stay two fields). Apple's joins names
    /// that differ only in case, as its header fields are looked up ignoring case (by reading; not run here).
    package static func headerFields(_ lines: [(name: String, value: String)]) -> [String: String] {
        var fields: [String: String] = [:]
        #if canImport(FoundationNetworking)
        for (name, value) in lines {
            fields[name] = fields[name].map { $0 + ", " + value } ?? value
        }
        #else
        var spelling: [String: String] = [:]
        for (name, value) in lines {
            let key = name.lowercased()
            let first = spelling[key] ?? name
            spelling[key] = first
            fields[first] = fields[first].map { $0 + ", " + value } ?? value
        }
        #endif
        return fields
    }

    /// Whether the client of a `URLProtocol` loading `task` hears every `urlProtocol(_:didLoad:)`, so that a body
    /// may be handed over in parts as they arrive. FoundationNetworking's client keeps only the last part for a
    /// task with a completion handler (which `data(for:)` is) or in a session without a data delegate: it stores
    /// each load in place of the one before (seen here: a 4 MiB body arrived as its last 8 KiB). Such a task must
    /// get the whole body in one load. Apple's client appends every part.
    ///
    /// On Linux this reads, by reflection, how the task's session registered it; call it where `startLoading`
    /// runs (the session's work queue, which owns that registry). When it cannot be read it answers `false`: the
    /// body then arrives whole at the end, never cut.
    package static func hearsEveryLoad(_ task: URLSessionTask?) -> Bool {
        #if canImport(FoundationNetworking)
        guard let task, let session = reflected(task, "session").flatMap(unwrapped) as? URLSession,
            session.delegate is any URLSessionDataDelegate,
            let registry = reflected(session, "taskRegistry"), let behaviours = reflected(registry, "behaviours")
        else { return false }
        for entry in Mirror(reflecting: behaviours).children {
            let pair = Mirror(reflecting: entry.value).children.map(\.value)
            guard pair.count == 2, pair[0] as? Int == task.taskIdentifier else { continue }
            return "\(pair[1])" == "callDelegate"
        }
        return false
        #else
        return true
        #endif
    }

    #if canImport(FoundationNetworking)
    /// The stored property `label` of `subject` or of one of its superclasses.
    private static func reflected(_ subject: Any, _ label: String) -> Any? {
        var mirror: Mirror? = Mirror(reflecting: subject)
        while let current = mirror {
            if let child = current.children.first(where: { $0.label == label }) { return child.value }
            mirror = current.superclassMirror
        }
        return nil
    }

    /// The value inside an `Optional` seen through reflection, or `value` itself.
    private static func unwrapped(_ value: Any) -> Any? {
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .optional else { return value }
        return mirror.children.first?.value
    }
    #endif
}
