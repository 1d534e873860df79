#if os(macOS) || os(Linux)  // The benchmarks start child processes (Process), which iOS, tvOS and watchOS lack.
import Foundation

/// The lines `servicekit-bench` prints: each figure, its ratio to the reference, and the target when it has one.
struct BenchmarkReport {
    private var lines: [String]
    private(set) var allTargetsMet = true

    init(header: String) {
        lines = [header]
    }

    var text: String { lines.joined(separator: "\n") }

    mutating func add(_ name: String, _ seconds: Double, of reference: Double? = nil, target: Double? = nil) {
        let figure = String(format: "%8.1f ms", seconds * 1000)
        addLine(name, figure, ratio: reference.map { seconds / $0 }, target: target)
    }

    mutating func add(memory name: String, _ kilobytes: Int, of reference: Int? = nil, target: Double? = nil) {
        let figure = String(format: "%8.1f MB", Double(kilobytes) / 1024)
        addLine(name, figure, ratio: reference.map { Double(kilobytes) / Double(max($0, 1)) }, target: target)
    }

    mutating func note(_ text: String) {
        lines.append(text)
    }

    private mutating func addLine(_ name: String, _ figure: String, ratio: Double?, target: Double?) {
        var line = name.padding(toLength: 48, withPad: " ", startingAt: 0) + figure
        line += String(format: "  %5.2f×", ratio ?? 1)
        if let target, let ratio {
            let met = ratio <= target
            allTargetsMet = allTargetsMet && met
            line += String(format: "  target ≤ %.2f×  %@", target, met ? "met" : "MISSED")
        }
        lines.append(line)
    }
}
#endif
