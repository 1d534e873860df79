import Foundation

/// The bytes waiting to be written to a connection, in order. Small pieces (status lines, headers,
/// small bodies, several pipelined answers) are coalesced into one reusable staging allocation; large
/// bodies are kept by reference. ``flush(to:)`` writes them with one `send` or a gathering `sendmsg`.
struct OutputQueue: ~Copyable, ByteSink {
    /// Bodies up to this size are copied into the staging area; larger ones are referenced.
    static let copyLimit = 16 * 1024

    private enum Piece {
        case staged(start: Int, end: Int)
        case body(Data)
    }

    private var staging: UnsafeMutableRawPointer
    private var stagingCapacity: Int
    private var stagingEnd = 0
    /// Start of the staged bytes not yet closed into a `Piece`.
    private var openStart = 0
    /// Closed pieces, all before the open staged bytes.
    private var pieces: [Piece] = []
    /// Bytes of the first pending piece (or of the open staged bytes) already written.
    private var sentInFirst = 0
    /// Bytes queued and not yet written.
    private(set) var pendingCount = 0

    private static let initialCapacity = 4096

    init() {
        stagingCapacity = Self.initialCapacity
        staging = UnsafeMutableRawPointer.allocate(byteCount: stagingCapacity, alignment: 16)
    }

    deinit {
        staging.deallocate()
    }

    var isEmpty: Bool { pendingCount == 0 }

    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress, bytes.count > 0 else { return }
        reserve(bytes.count)
        (staging + stagingEnd).copyMemory(from: source, byteCount: bytes.count)
        stagingEnd += bytes.count
        pendingCount += bytes.count
    }

    mutating func append(body: Data) {
        guard body.count > Self.copyLimit else {
            body.withUnsafeBytes { append($0) }
            return
        }
        closeOpenStaging()
        pieces.append(.body(body))
        pendingCount += body.count
    }

    private mutating func closeOpenStaging() {
        guard stagingEnd > openStart else { return }
        pieces.append(.staged(start: openStart, end: stagingEnd))
        openStart = stagingEnd
    }

    private mutating func reserve(_ extra: Int) {
        guard stagingEnd + extra > stagingCapacity else { return }
        var capacity = stagingCapacity * 2
        while capacity < stagingEnd + extra { capacity *= 2 }
        let grown = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
        grown.copyMemory(from: staging, byteCount: stagingEnd)
        staging.deallocate()
        staging = grown
        stagingCapacity = capacity
    }

    /// Writes as much as the socket takes now. Returns `.moved` with the bytes written (possibly after
    /// several calls), `.wouldBlock` if nothing could be written, or `.failed`.
    mutating func flush(to fd: Int32) -> IOOutcome {
        var total = 0
        while pendingCount > 0 {
            let outcome = writeOnce(fd)
            guard case .moved(let count) = outcome else {
                return total > 0 && outcome == .wouldBlock ? .moved(total) : outcome
            }
            total += count
            advance(by: count)
        }
        resetIfLarge()
        return .moved(total)
    }

    /// One `send` of the staged bytes, or one `sendmsg` of staged bytes followed by the first large body.
    private mutating func writeOnce(_ fd: Int32) -> IOOutcome {
        let base = UnsafeRawPointer(staging)
        guard let first = pieces.first else {
            return Sys.send(fd, from: base + openStart + sentInFirst, count: stagingEnd - openStart - sentInFirst)
        }
        switch first {
        case .staged(let start, let end):
            if pieces.count > 1, case .body(let body) = pieces[1] {
                return body.withUnsafeBytes { bodyBytes in
                    var vectors = (
                        iovec(iov_base: UnsafeMutableRawPointer(mutating: base + start + sentInFirst), iov_len: end - start - sentInFirst),
                        iovec(iov_base: UnsafeMutableRawPointer(mutating: bodyBytes.baseAddress), iov_len: bodyBytes.count)
                    )
                    return withUnsafeMutableBytes(of: &vectors) { raw in
                        Sys.send(fd, vectors: raw.baseAddress!.assumingMemoryBound(to: iovec.self), count: 2)
                    }
                }
            }
            return Sys.send(fd, from: base + start + sentInFirst, count: end - start - sentInFirst)
        case .body(let body):
            return body.withUnsafeBytes { bytes in
                Sys.send(fd, from: bytes.baseAddress! + sentInFirst, count: bytes.count - sentInFirst)
            }
        }
    }

    private mutating func advance(by written: Int) {
        var remaining = written
        pendingCount -= written
        while remaining > 0, let first = pieces.first {
            let length: Int
            switch first {
            case .staged(let start, let end): length = end - start
            case .body(let body): length = body.count
            }
            let left = length - sentInFirst
            if remaining < left {
                sentInFirst += remaining
                return
            }
            remaining -= left
            sentInFirst = 0
            pieces.removeFirst()
        }
        sentInFirst += remaining
        if pendingCount == 0 {
            pieces.removeAll(keepingCapacity: true)
            stagingEnd = 0
            openStart = 0
            sentInFirst = 0
        }
    }

    /// Gives back a staging area that one large answer inflated.
    private mutating func resetIfLarge() {
        guard pendingCount == 0, stagingCapacity > 1 << 20 else { return }
        staging.deallocate()
        stagingCapacity = Self.initialCapacity
        staging = UnsafeMutableRawPointer.allocate(byteCount: stagingCapacity, alignment: 16)
    }
}
