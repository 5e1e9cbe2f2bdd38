import XCTest
import ModelLintSupport

/// `FewKeys` finds keys by comparing them in turn up to `scanned` of them and by hashing past that: both ways keep
/// each key once, where first recorded, and compare keys as `String` does.
final class FewKeysTests: XCTestCase {
    private func record(_ keys: [String], capacity: Int) -> (FewKeys, [Int]) {
        var map = FewKeys(capacity: capacity)
        var values: [Int] = []
        for (i, key) in keys.enumerated() where map.recordFirst(key) { values.append(i) }
        return (map, values)
    }

    func testTheFirstValueOfEachKeyIsKeptInOrderEitherWay() {
        let keys = (0..<40).map { "k\($0 % 25)" }  // 25 distinct keys, the first 15 recorded twice
        for capacity in [keys.count, FewKeys.scanned] {
            let (map, values) = record(keys, capacity: capacity)
            XCTAssertEqual(map.keys, (0..<25).map { "k\($0)" }, "capacity \(capacity)")
            XCTAssertEqual(values, Array(0..<25), "capacity \(capacity)")
            XCTAssertEqual(map.index(of: "k7"), 7)
            XCTAssertNil(map.index(of: "k25"))
        }
        var map = FewKeys(capacity: 2)
        XCTAssertTrue(map.recordFirst("a"))
        XCTAssertFalse(map.recordFirst("a"))
        XCTAssertEqual(map.keys, ["a"])
    }

    func testEarlierIndexRecordsOnlyWhatIsNew() {
        let keys = (0..<50).map { "k\($0 % 35)" }  // 35 distinct keys, the first 15 seen twice
        for capacity in [keys.count, 1] {
            var map = FewKeys(capacity: capacity)
            let answers = keys.map { map.earlierIndex(recording: $0) }
            XCTAssertEqual(answers, (0..<50).map { $0 < 35 ? nil : $0 - 35 }, "capacity \(capacity)")
            XCTAssertEqual(map.keys, (0..<35).map { "k\($0)" }, "capacity \(capacity)")
            XCTAssertEqual(map.earlierIndex(recording: "Caf\u{E9}"), nil)
            XCTAssertEqual(map.earlierIndex(recording: "Cafe\u{301}"), 35, "as a dictionary of strings")
        }
    }

    func testKeysCompareAsStringsDoEitherWay() {
        // A long key and its canonically equivalent spelling: one key, as for a dictionary of strings.
        let long = String(repeating: "x", count: 40)
        for capacity in [1, 100] {
            var map = FewKeys(capacity: capacity)
            map.recordFirst("Caf\u{E9}")
            map.recordFirst(long)
            XCTAssertEqual(map.index(of: "Cafe\u{301}"), 0, "capacity \(capacity)")
            XCTAssertEqual(map.index(of: String(repeating: "x", count: 40)), 1)
            let dictionary: [String: Int] = ["Caf\u{E9}": 1]
            XCTAssertEqual(dictionary["Cafe\u{301}"], 1, "what a dictionary does")
        }
    }
}
