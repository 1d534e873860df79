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
}
