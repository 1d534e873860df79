/// A binary min-heap of an event loop's descriptors keyed by their ``LoopDescriptor/scheduledWake``. Each is
/// in the heap at most once and knows its slot, so it can be moved or removed in O(log n) when it closes.
package struct TimerHeap {
    private var entries: [LoopDescriptor] = []

    /// The earliest scheduled wake, if any.
    var earliest: UInt64? { entries.first?.scheduledWake }

    /// Schedules `descriptor` at `deadline`, moving it if it is already scheduled.
    package mutating func schedule(_ descriptor: LoopDescriptor, at deadline: UInt64) {
        if descriptor.timerSlot >= 0 {
            let slot = descriptor.timerSlot
            let earlier = deadline < descriptor.scheduledWake
            descriptor.scheduledWake = deadline
            if earlier { siftUp(slot) } else { siftDown(slot) }
        } else {
            descriptor.scheduledWake = deadline
            descriptor.timerSlot = entries.count
            entries.append(descriptor)
            siftUp(entries.count - 1)
        }
    }

    /// Removes `descriptor` if it is scheduled.
    package mutating func remove(_ descriptor: LoopDescriptor) {
        let slot = descriptor.timerSlot
        guard slot >= 0 else { return }
        let last = entries.count - 1
        if slot != last { swapAt(slot, last) }
        entries.removeLast()
        descriptor.timerSlot = -1
        descriptor.scheduledWake = .max
        if slot < entries.count {
            siftDown(slot)
            siftUp(slot)
        }
    }

    /// Removes and returns the earliest descriptor whose wake is at or before `now`.
    mutating func popDue(now: UInt64) -> LoopDescriptor? {
        guard let first = entries.first, first.scheduledWake <= now else { return nil }
        remove(first)
        return first
    }

    private mutating func siftUp(_ start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard entries[child].scheduledWake < entries[parent].scheduledWake else { return }
            swapAt(child, parent)
            child = parent
        }
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            guard left < entries.count else { return }
            var smallest = left
            if left + 1 < entries.count, entries[left + 1].scheduledWake < entries[left].scheduledWake { smallest = left + 1 }
            guard entries[smallest].scheduledWake < entries[parent].scheduledWake else { return }
            swapAt(parent, smallest)
            parent = smallest
        }
    }

    private mutating func swapAt(_ a: Int, _ b: Int) {
        entries.swapAt(a, b)
        entries[a].timerSlot = a
        entries[b].timerSlot = b
    }
}
