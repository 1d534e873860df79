import Foundation

/// Eight server-sent events, and the gzip pieces a server that flushes after each event sends (CPython's
/// `zlib.compressobj(6, DEFLATED, 31)`, `Z_SYNC_FLUSH` after each event, then `flush()`). From the third event
/// on, the blocks point back into the earlier events.
package enum GzipEventStream {
    package static let events = (0..<8).map { "event: token\ndata: {\"i\": \($0), \"text\": \"hello world number \($0) of the stream\"}\n\n" }
    package static let gzipPieces = [
        "H4sIAAAAAAAAAwzGOw6AIBAFwJ5TvGxtQc1tMDyDEXYTXD+J8e461fCkeoLbRg0le054ZJWEOEGct/+VytYMl41WoEefORBhC7wSuw/mLm8IHwAAAP//",
        "SsVllCF+owwxjQIAAAD//w==", "wmmUEX6jjDCNAgAAAP//", "wmmUMX6jjDGNAgAAAP//", "wmmUCX6jTDCNAgAAAP//",
        "wmmUKX6jTDGNAgAAAP//", "wmmUGX6jzDCNAgAAAP//", "wmmUOX6jzDGNAgAAAP//", "AwCAN9EmWAIAAA==",
    ].map { Data(base64Encoded: $0)! }
}
