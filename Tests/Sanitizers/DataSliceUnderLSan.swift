// Why `.ci/sanitized-suite address` turns LeakSanitizer off: on Linux it reports Swift values that are still
// reachable as leaked. Run it:
//
//     swiftc -sanitize=address Tests/Sanitizers/DataSliceUnderLSan.swift -o /tmp/slice-lsan && /tmp/slice-lsan
//
// With Swift 6.3 on Linux it reports "Direct leak of 65 byte(s)" twice and "Indirect leak" of the 100- and
// 200-byte buffers, and exits with status 1, although both slices are held by globals until the process exits. A `Data`
// slice keeps its storage in an enum payload whose spare pointer bits carry the case tag, so the word LSan
// scans is not the storage's address and it finds no reference to it. The suite's reports have that shape
// (Data and String storage, URLSession and XCTest objects held by live values), and inside a `recorder` child
// each one turns a passing run into exit status 1.
import Foundation

nonisolated(unsafe) var keptSlices: [Data] = []
nonisolated(unsafe) var keptSlice: Data?

keptSlices.append(Data((0..<100).map { UInt8($0) })[10..<50])
keptSlice = Data((0..<200).map { UInt8($0) })[5..<150]
print(keptSlices.count, keptSlice!.count)
