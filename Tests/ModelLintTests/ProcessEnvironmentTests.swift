import Foundation
import XCTest
import ModelLintSupport

/// Read once per git command: the environment as Foundation gives it, without Foundation's cost.
final class ProcessEnvironmentTests: XCTestCase {
    func testTheEnvironmentIsFoundationsAndAVariableSetLaterIsSeen() {
        XCTAssertEqual(ProcessEnvironment.all(), ProcessInfo.processInfo.environment)
        XCTAssertFalse(ProcessEnvironment.all().isEmpty)
        let name = "MODELLINT_TEST_VARIABLE_\(getpid())"
        XCTAssertNil(ProcessEnvironment.value(name))
        setenv(name, "a=b \u{E9}", 1)
        defer { unsetenv(name) }
        XCTAssertEqual(ProcessEnvironment.value(name), "a=b \u{E9}")
        XCTAssertEqual(ProcessEnvironment.all()[name], "a=b \u{E9}")
        XCTAssertEqual(ProcessEnvironment.all(), ProcessInfo.processInfo.environment)
    }
}
