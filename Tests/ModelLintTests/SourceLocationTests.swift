import XCTest
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
}
