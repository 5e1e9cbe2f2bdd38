import Dispatch
import XCTest
import ModelLintSupport
import ModelLintModel

/// A location keeps its line and column in 32 bits each: every value a file can have comes back as given, nil
/// stays nil, and equality and order are the values'.
final class SourceLocationTests: XCTestCase {
    func testLinesAndColumnsComeBackAsGiven() {
        for value in [nil, 0, 1, 80, 65_536, Int(Int32.max)] as [Int?] {
            var location = SourceLocation(file: "m", line: value, column: value)
            XCTAssertEqual(location.line, value)
            XCTAssertEqual(location.column, value)
            location.line = 7
            location.column = nil
            XCTAssertEqual(location.line, 7)
            XCTAssertNil(location.column)
        }
        // Past what any file modellint reads can have: kept at the largest, and never negative.
        XCTAssertEqual(SourceLocation(file: "m", line: Int(Int32.max) + 1).line, Int(Int32.max))
        XCTAssertEqual(SourceLocation(file: "m", column: -3).column, 0)
    }

    func testEqualityAndOrderAreTheValues() {
        let a = SourceLocation(file: "m", line: 3, column: nil)
        XCTAssertNotEqual(a, SourceLocation(file: "m", line: 3, column: 0))
        XCTAssertNotEqual(a, SourceLocation(file: "m", line: nil, column: nil))
        XCTAssertEqual(a, SourceLocation(file: "m", line: 3))
        XCTAssertEqual(Set([a, SourceLocation(file: "m", line: 3)]).count, 1)
        XCTAssertTrue(SourceLocation(file: "m", line: 2, column: 9) < SourceLocation(file: "m", line: 3, column: 1))
        XCTAssertTrue(SourceLocation(file: "a", line: 9) < SourceLocation(file: "m", line: 1))
        XCTAssertTrue(SourceLocation(file: "m", line: nil) < SourceLocation(file: "m", line: 1))
    }

    /// A location names its file by number (`SourceFile`): the path comes back byte for byte, equal paths are one
    /// file however they were made, and paths that are only canonically equivalent are two files, each printed as
    /// it was given.
    func testTheFileComesBackByteForByte() {
        let composed = "Mod\u{E8}le/contents"
        let decomposed = "Mode\u{300}le/contents"
        XCTAssertEqual(composed, decomposed)  // Swift's String equality: canonical equivalence
        let a = SourceLocation(file: composed, line: 1)
        let b = SourceLocation(file: decomposed, line: 1)
        XCTAssertTrue(a.file.utf8.elementsEqual(composed.utf8))
        XCTAssertTrue(b.file.utf8.elementsEqual(decomposed.utf8))
        XCTAssertNotEqual(a, b)
        // Ordered as their paths are, then by line: equivalent paths order by line, as equal ones do.
        XCTAssertTrue(SourceLocation(file: composed, line: 1) < SourceLocation(file: decomposed, line: 2))
        XCTAssertTrue(SourceLocation(file: decomposed, line: 1) < SourceLocation(file: composed, line: 2))
        XCTAssertFalse(a < b)
        XCTAssertFalse(b < a)

        let built = String(decoding: Array("Near.xcdatamodeld/Near 1.xcdatamodel/contents".utf8), as: UTF8.self)
        let same = SourceLocation(file: built, line: 4, column: 2)
        XCTAssertEqual(same, SourceLocation(file: "Near.xcdatamodeld/Near 1.xcdatamodel/contents", line: 4, column: 2))
        XCTAssertEqual(
            Set([same, SourceLocation(file: "Near.xcdatamodeld/Near 1.xcdatamodel/contents", line: 4, column: 2)])
                .count, 1)
        var moved = same
        moved.file = "Other/contents"
        XCTAssertEqual(moved.file, "Other/contents")
        XCTAssertEqual(moved.line, 4)
        XCTAssertEqual(same.file, "Near.xcdatamodeld/Near 1.xcdatamodel/contents")
    }

    /// Files named from many threads at once are numbered once each: every location gives its own path back.
    func testFilesNamedOnEveryThreadComeBackAsGiven() {
        let paths = (0..<400).map { "Concurrent/\($0 % 100)/V\($0).xcdatamodel/contents" }
        let mismatches = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for (i, path) in paths.enumerated() where (i + thread) % 3 != 0 {
                let location = SourceLocation(file: path, line: i)
                if location.file != path || location != SourceLocation(file: path, line: i) {
                    mismatches.withLock { $0 += 1 }
                }
            }
        }
        XCTAssertEqual(mismatches.withLock { $0 }, 0)
    }
}
