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
}
