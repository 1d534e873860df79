/// The kept records, oldest first, in a ring that grows up to the journal's capacity and then overwrites the
/// oldest, so keeping the newest N records costs no copying.
struct JournalRing {
    private var slots: [JournalRecord?] = []
    /// The slot of the oldest kept record.
    private var head = 0
    /// How many records are kept.
    private(set) var count = 0

    /// Adds `record` as the newest, keeping at most `capacity`; returns the record dropped to make room, if any.
    /// The record is moved in and the dropped one out, not copied: this runs for every request a server answers.
    mutating func append(_ record: consuming JournalRecord, capacity: Int) -> JournalRecord? {
        if count >= capacity, !slots.isEmpty {
            var exchanged: JournalRecord? = consume record
            swap(&slots[head], &exchanged)
            head = (head + 1) % slots.count
            return exchanged
        }
        if count < slots.count {
            slots[(head + count) % slots.count] = record
        } else {
            if head != 0 {
                // Full below capacity after drops (the body budget): straighten, then grow.
                slots = Array(slots[head...] + slots[..<head])
                head = 0
            }
            slots.append(record)
        }
        count += 1
        return nil
    }

    /// Drops and returns the oldest record; the ring must not be empty.
    mutating func removeOldest() -> JournalRecord {
        let oldest = slots[head]!
        slots[head] = nil
        head = (head + 1) % slots.count
        count -= 1
        return oldest
    }

    /// The kept records, oldest first.
    var records: [JournalRecord] {
        records(from: 0)
    }

    /// At most `limit` kept records from the `first`-oldest on (0 is the oldest), oldest first.
    func records(from first: Int, limit: Int = .max) -> [JournalRecord] {
        guard first < count else { return [] }
        let end = limit >= count - first ? count : first + limit
        return (first..<end).map { slots[(head + $0) % slots.count]! }
    }
}
