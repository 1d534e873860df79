@testable import MockServer
@testable import MockServerWire
import Testing

/// ``TimerHeap``, the event loop's timers, checked against a plain dictionary of deadlines: whatever is
/// scheduled, moved or removed, the earliest comes out first, each descriptor once, and every descriptor
/// knows whether (and where) it is in the heap.
@Suite struct TimerHeapTests {
    /// Descriptor numbers that are never opened: the heap only keys by object.
    private static func descriptors(_ count: Int) -> [LoopDescriptor] {
        (0..<count).map { LoopDescriptor(fd: Int32(100_000 + $0)) }
    }

    /// How `heap` differs from `model` (descriptor index → deadline), or `nil` when it holds exactly that: each
    /// scheduled descriptor has its deadline and a distinct slot within the count, each other is unscheduled,
    /// and the earliest is the least deadline.
    private static func mismatch(_ heap: TimerHeap, _ model: [Int: UInt64], _ all: [LoopDescriptor]) -> String? {
        var slots = Set<Int>()
        for (index, descriptor) in all.enumerated() {
            if let deadline = model[index] {
                guard descriptor.scheduledWake == deadline else { return "descriptor \(index) wakes at \(descriptor.scheduledWake), not \(deadline)" }
                guard (0..<model.count).contains(descriptor.timerSlot), slots.insert(descriptor.timerSlot).inserted else {
                    return "descriptor \(index) has slot \(descriptor.timerSlot), out of range or taken"
                }
            } else if descriptor.timerSlot != -1 || descriptor.scheduledWake != .max {
                return "descriptor \(index) is still scheduled (slot \(descriptor.timerSlot), wake \(descriptor.scheduledWake))"
            }
        }
        guard heap.earliest == model.values.min() else {
            return "the earliest is \(String(describing: heap.earliest)), not \(String(describing: model.values.min()))"
        }
        return nil
    }

    @Test func emptyHeap_hasNoEarliest_andNothingDue() {
        var heap = TimerHeap()
        #expect(heap.earliest == nil)
        #expect(heap.popDue(now: .max) == nil)
    }

    @Test func popDue_givesWhatIsDueAtOrBeforeNow_earliestFirst_andNothingLater() {
        var heap = TimerHeap()
        let all = Self.descriptors(4)
        for (descriptor, deadline) in zip(all, [30, 10, 40, 20] as [UInt64]) {
            heap.schedule(descriptor, at: deadline)
        }
        #expect(heap.popDue(now: 9) == nil)
        #expect(heap.popDue(now: 10) === all[1])
        #expect(heap.popDue(now: 25) === all[3])
        #expect(heap.popDue(now: 25) == nil)
        #expect(heap.earliest == 30)
        // Popped descriptors are unscheduled: they may be scheduled again
        #expect(all[1].timerSlot == -1)
        #expect(all[1].scheduledWake == .max)
        heap.schedule(all[1], at: 5)
        #expect(heap.popDue(now: 100) === all[1])
        #expect(heap.popDue(now: 100) === all[0])
        #expect(heap.popDue(now: 100) === all[2])
        #expect(heap.popDue(now: .max) == nil)
    }

    @Test func reschedulingEarlierOrLater_movesTheDescriptor() {
        var heap = TimerHeap()
        let all = Self.descriptors(7)
        for (index, descriptor) in all.enumerated() {
            heap.schedule(descriptor, at: UInt64(10 * (index + 1)))
        }
        // The earliest moved last, the last moved first, one in the middle moved to the middle
        heap.schedule(all[0], at: 1000)
        heap.schedule(all[6], at: 1)
        heap.schedule(all[3], at: 35)
        #expect(Self.mismatch(heap, [0: 1000, 1: 20, 2: 30, 3: 35, 4: 50, 5: 60, 6: 1], all) == nil)
        let order = (0..<7).compactMap { _ in heap.popDue(now: .max) }
        #expect(order.map(\.fd) == [6, 1, 2, 3, 4, 5, 0].map { all[$0].fd })
    }

    @Test func removingAnyDescriptor_keepsTheRestInOrder() {
        // For every slot of a full heap of 15: removing the descriptor there leaves the others in order
        for removed in 0..<15 {
            var heap = TimerHeap()
            let all = Self.descriptors(15)
            // Deadlines whose heap order differs from the order of scheduling
            let deadlines: [UInt64] = [70, 20, 90, 10, 150, 40, 60, 130, 30, 110, 50, 140, 80, 120, 100]
            for (descriptor, deadline) in zip(all, deadlines) {
                heap.schedule(descriptor, at: deadline)
            }
            heap.remove(all[removed])
            heap.remove(all[removed])
            var model = Dictionary(uniqueKeysWithValues: deadlines.enumerated().map { ($0.offset, $0.element) })
            model[removed] = nil
            #expect(Self.mismatch(heap, model, all) == nil, "removed \(removed)")
            let popped = (0..<15).compactMap { _ in heap.popDue(now: .max) }.map(\.fd)
            #expect(popped == model.sorted { $0.value < $1.value }.map { all[$0.key].fd })
            #expect(all.allSatisfy { $0.timerSlot == -1 && $0.scheduledWake == .max })
        }
    }

    @Test func removingADescriptor_whoseReplacementIsEarlierThanItsNewParent_movesTheReplacementUp() {
        // Given a heap scheduled in level order, so that its array is exactly this: the last (4, under 3) is
        // earlier than 10, the parent of the slot that 12 leaves
        var heap = TimerHeap()
        let deadlines: [UInt64] = [1, 10, 2, 11, 12, 3, 5, 13, 14, 15, 16, 4]
        let all = Self.descriptors(deadlines.count)
        for (descriptor, deadline) in zip(all, deadlines) {
            heap.schedule(descriptor, at: deadline)
        }
        #expect(all.map(\.timerSlot) == Array(0..<deadlines.count))
        // When 12 is removed, 4 takes its slot and must rise above 10
        heap.remove(all[4])
        #expect(all[11].timerSlot == 1)
        #expect(all[1].timerSlot == 4)
        // Then everything comes out in order
        let popped = (0..<deadlines.count).compactMap { _ in heap.popDue(now: .max) }.map(\.fd)
        let expected = deadlines.indices.filter { $0 != 4 }.sorted { deadlines[$0] < deadlines[$1] }.map { all[$0].fd }
        #expect(popped == expected)
    }

    @Test func randomOperations_agreeWithAModel() {
        // 2,000 seeded operations on 40 descriptors: schedule (new or moved), remove, pop what is due
        var generator = SeededGenerator(seed: 0x71_3E5)
        var heap = TimerHeap()
        let all = Self.descriptors(40)
        var model: [Int: UInt64] = [:]
        for step in 0..<2000 {
            let index = Int.random(in: 0..<all.count, using: &generator)
            switch UInt8.random(in: 0..<10, using: &generator) {
            case 0..<6:
                let deadline = UInt64.random(in: 1...1000, using: &generator)
                heap.schedule(all[index], at: deadline)
                model[index] = deadline
            case 6..<8:
                heap.remove(all[index])
                model[index] = nil
            default:
                let now = UInt64.random(in: 0...1000, using: &generator)
                while let due = heap.popDue(now: now) {
                    let dueIndex = all.firstIndex { $0 === due }!
                    guard let deadline = model[dueIndex], deadline == model.values.min(), deadline <= now else {
                        Issue.record("step \(step): popped descriptor \(dueIndex), not the earliest that is due by \(now)")
                        return
                    }
                    model[dueIndex] = nil
                }
                guard model.values.allSatisfy({ $0 > now }) else {
                    Issue.record("step \(step): something due by \(now) was left")
                    return
                }
            }
            if let mismatch = Self.mismatch(heap, model, all) {
                Issue.record("step \(step): \(mismatch)")
                return
            }
        }
    }
}
