import Foundation
import XCTest
import ModelLintSupport

/// `concurrentMap` hands cores runs of neighbouring items: every item is transformed exactly once and its result
/// stands at its own index, for every count from 0 to 200 (fewer items than runs, as many, and uneven runs).
final class ConcurrentMapTests: XCTestCase {
    func testEveryItemOnceInInputOrder() {
        for count in 0...200 {
            let items = (0..<count).map { $0 * 7 + 3 }
            let calls = Locked([Int](repeating: 0, count: count))
            let mapped = concurrentMap(items) { item in
                calls.withLock { $0[(item - 3) / 7] += 1 }
                return "item \(item)"
            }
            XCTAssertEqual(mapped, items.map { "item \($0)" }, "\(count) items")
            XCTAssertEqual(calls.withLock { $0 }, [Int](repeating: 1, count: count), "\(count) items")
        }
    }

    /// Runs are of neighbours: two items a core took in one run were next to each other (each thread's items, in
    /// the order it took them, step by one within a run).
    func testACoreTakesNeighbours() {
        let count = 1_000
        let taken = Locked([(thread: String, item: Int)]())
        _ = concurrentMap(Array(0..<count)) { item in
            taken.withLock { $0.append(("\(pthread_self())", item)) }
            return item
        }
        let byThread = Dictionary(grouping: taken.withLock { $0 }, by: \.thread).mapValues { $0.map(\.item) }
        // A run ends where a thread's next item is not the one after: at most one run per `4 * cores` run.
        let runs = byThread.values.reduce(0) { total, items in
            total + 1 + zip(items, items.dropFirst()).filter { $1 != $0 + 1 }.count
        }
        XCTAssertEqual(byThread.values.reduce(0) { $0 + $1.count }, count)
        XCTAssertLessThanOrEqual(runs, 4 * ProcessInfo.processInfo.activeProcessorCount)
    }
}
