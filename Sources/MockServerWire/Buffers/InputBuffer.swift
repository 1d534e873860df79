/// The bytes read from a connection and not yet consumed, in one reusable allocation that requests are
/// parsed from in place. It grows on demand up to a limit and compacts instead of growing when it can.
struct InputBuffer: ~Copyable {
    private var storage: UnsafeMutableRawPointer
    private var capacity: Int
    private var start = 0
    private var end = 0

    init(capacity: Int) {
        self.capacity = capacity
        self.storage = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
    }

    deinit {
        storage.deallocate()
    }

    /// The unread bytes; valid until the buffer is next mutated.
    var unread: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: storage + start, count: end - start)
    }

    var count: Int { end - start }
    var isEmpty: Bool { end == start }

    /// Marks `count` unread bytes as used.
    mutating func consume(_ count: Int) {
        start += count
        if start == end {
            start = 0
            end = 0
        }
    }

    /// Drops everything unread.
    mutating func clear() {
        start = 0
        end = 0
    }

    /// Free space after the unread bytes for one read, compacting or growing (never beyond `limit`
    /// bytes in total); `nil` when `limit` unread bytes are already buffered.
    mutating func writableRegion(limit: Int) -> UnsafeMutableRawBufferPointer? {
        if end == capacity, start > 0 {
            let unreadCount = count
            storage.copyMemory(from: storage + start, byteCount: unreadCount)
            start = 0
            end = unreadCount
        }
        if end == capacity {
            guard capacity < limit else { return nil }
            let grown = UnsafeMutableRawPointer.allocate(byteCount: min(limit, capacity * 2), alignment: 16)
            grown.copyMemory(from: storage, byteCount: end)
            storage.deallocate()
            storage = grown
            capacity = min(limit, capacity * 2)
        }
        return UnsafeMutableRawBufferPointer(start: storage + end, count: capacity - end)
    }

    /// Records that a read put `count` bytes into the last ``writableRegion(limit:)``.
    mutating func didWrite(_ count: Int) {
        end += count
    }
}
