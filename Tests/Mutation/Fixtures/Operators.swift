// A fixture for Tests/Mutation/selftest.sh: never compiled (it is not under Sources/). Each function shows
// one mutation operator; Operators.expected lists every mutant the generator must make of this file.
import Foundation
@testable import MockServer

/// Doc comments are never mutated: if a < b && c == d { return true } [1, 2, 3]
/* Nor block comments: if x > 0 || y != 1 { count += 1 }
   /* nested */ min(1, 2) == max(3, 4)
*/
func comparisons(a: Int, b: Int) -> Bool {
    let generic: Array<Int> = [a]
    return a < b || a > b || a <= b || a >= b || a == b || a != b || generic.isEmpty
}

func conditions(ready: Bool, list: [Int], count: Int) -> Int {
    if ready {
        return 1
    }
    if !ready, count > 2 {
        return 2
    }
    guard let first = list.first, first == count else { return 3 }
    if ready && list.isEmpty { return 4 }
    return 0
}

func logical(a: Bool, b: Bool) -> Bool {
    a && b || !a
}

func constants(values: [Int]) -> Int {
    let pair = (7, 8)
    let mask = 0xFF
    let total = values[0] + pair.0 + -1 + 1.5.exponent + 1_000 + mask
    return total
}

func ranges(values: [Int]) -> Int {
    var sum = 0
    for index in 0..<values.count { sum += values[index] }
    for index in 1...3 { sum -= index }
    return sum + values[..<2].count + values[1...].count
}

func statements(values: inout [Int], log: (String) -> Void) {
    values.append(1)
    values[0] = 2
    values[0] += 3
    try? values.remove(at: 0).description.write(toFile: "/dev/null", atomically: false, encoding: .utf8)
    log("values: \(values.count > 1 ? "many" : "few")")
    let declared = values.count
    _ = declared
    precondition(values.count < 100, "few values")
    values
        .removeAll()
    if values.isEmpty {
        values.append(4)
    }
}

func booleansAndLimits(values: [Int]) -> Bool {
    let small = min(values.count, 3) + max(0, Int.max - 1)
    func limits(min: Int) -> Int { min }
    return small > limits(min: 1) ? true : false
}

func lists() -> [String: Int] {
    let names = ["a", "b", "c"]
    let single = [names.count]
    let handler = { [names, single] in names.count + single.count }
    return ["one": 1, "two": handler()]
}

func strings() -> String {
    let plain = "if a < b { return true } [1, 2]"
    let raw = #"min("x") == max("y") && "1""#
    let multi = """
        while a > b || c <= d { total -= 1 }
        \(plain.count > 2 ? 3 : 4)
        """
    return plain + raw + multi  // a trailing comment: x == y
}

#if canImport(Darwin)
func darwinOnly() -> Bool { 1 < 2 }
#else
func linuxOnly() -> Bool { true }
#endif
