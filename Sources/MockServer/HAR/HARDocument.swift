/// An HTTP Archive (HAR 1.2) document, the export format of browsers, Charles, Proxyman and mitmproxy.
///
/// Only the fields a cassette can use are modelled; unknown fields are ignored when reading. Optional
/// fields that HAR writers often leave out (`cookies`, `headersSize`, `bodySize`, `timings`) decode as
/// absent rather than failing.
package struct HARDocument: Codable, Sendable, Hashable {
    /// The archive.
    package var log: HARLog

    /// Wraps `log`.
    init(log: HARLog) {
        self.log = log
    }
}
