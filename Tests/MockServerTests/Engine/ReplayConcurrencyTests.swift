import Dispatch
import Foundation
@testable import MockServer
import ServiceReplayShared
import Testing

/// Many threads hitting one engine: every recorded response is handed out exactly once, in order per request.
@Suite struct ReplayConcurrencyTests {
    @Test func concurrentRequests_getEachResponseExactlyOnce_inOrderPerKey() {
        // GIVEN 6 requests recorded 40 times each, interleaved, failing after the last
        let keys = 6
        let repeats = 40
        let threads = 8
        let perThreadPerKey = 10
        var interactions: [Interaction] = []
        for _ in 0..<repeats {
            for key in 0..<keys { interactions.append(.stub("GET", "/k\(key)?x=1")) }
        }
        let engine = ReplayEngine(cassettes: [Cassette(name: "c", matching: MatchRules(afterLast: .fail), interactions: interactions)])
        // WHEN 8 threads each send every request 10 times, interleaving keys
        let results = Lock<[[(key: Int, index: Int?)]]>(Array(repeating: [], count: threads))
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            var seen: [(key: Int, index: Int?)] = []
            for round in 0..<(keys * perThreadPerKey) {
                let key = (round + thread) % keys
                seen.append((key, engine.answer(HTTPRequest(method: "GET", target: "/k\(key)?x=1")).interaction?.index))
            }
            results.withLock { $0[thread] = seen }
        }
        let all = results.withLock { $0 }
        for key in 0..<keys {
            // THEN each of the key's 40 recordings was served exactly once, the rest were refused as used up
            let served = all.flatMap { $0 }.filter { $0.key == key }.compactMap(\.index)
            #expect(served.sorted() == (0..<repeats).map { $0 * keys + key })
            // AND each thread saw that key's recordings in increasing order
            for thread in all {
                let order = thread.filter { $0.key == key }.compactMap(\.index)
                #expect(order == order.sorted())
            }
        }
        #expect(all.flatMap { $0 }.count == threads * keys * perThreadPerKey)
    }

    @Test func addingInCode_whileAnswering_isSafe() {
        // GIVEN an engine answering on several threads while another adds stubs
        let engine = ReplayEngine(cassettes: [Cassette(name: "c", interactions: [.stub("GET", "/base")])])
        let misses = Lock(0)
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            for step in 0..<50 {
                if worker == 0 {
                    engine.add(.stub("GET", "/added/\(step)", status: 201))
                } else if engine.answer(HTTPRequest(method: "GET", target: "/base")).response?.status != 200 {
                    misses.withLock { $0 += 1 }
                }
            }
        }
        // THEN the loaded cassette kept answering and every added stub answers afterwards
        #expect(misses.withLock { $0 } == 0)
        for step in 0..<50 {
            #expect(engine.answer(HTTPRequest(method: "GET", target: "/added/\(step)")).response?.status == 201)
        }
    }

    @Test func addingTheSameRequestInCode_whileAnsweringIt_servesOnlyWhatWasAdded() {
        // GIVEN an engine answering GET /same on three threads while a fourth adds 300 stubs for that very request
        // (each joins the sequence the answering threads are advancing)
        let engine = ReplayEngine(cassettes: [])
        let added = 300
        let wrong = Lock<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            var last = -1
            for step in 0..<added {
                if worker == 0 {
                    engine.add(.stub("GET", "/same", status: 200 + step % 100))
                    continue
                }
                // WHEN each answer is looked up and its sequence advanced
                let answer = engine.answer(HTTPRequest(method: "GET", target: "/same"))
                guard let interaction = answer.interaction else { continue }  // before the first stub
                // THEN it is one of the stubs added, with that stub's own response, never one from another view
                // of the index, and each thread sees the sequence move forward
                if answer.status != 200 + interaction.index % 100 || interaction.index < last {
                    wrong.withLock { $0.append("\(interaction) answered \(answer.status ?? -1) after \(last)") }
                }
                last = interaction.index
            }
        }
        #expect(wrong.withLock { $0 } == [])
        #expect(engine.interactions.count == added)
    }
}
