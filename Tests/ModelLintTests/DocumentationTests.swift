import Foundation
import XCTest
@testable import ModelLint

final class DocumentationTests: XCTestCase {
    /// The README's rule list is generated; this keeps it from drifting from the rule types.
    func testReadmeRuleListMatchesTheRules() throws {
        let readme = try String(contentsOf: repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let begin = try XCTUnwrap(readme.range(of: "<!-- rules:begin -->\n"))
        let end = try XCTUnwrap(readme.range(of: "<!-- rules:end -->"))
        let listed = String(readme[begin.upperBound..<end.lowerBound])
        XCTAssertEqual(listed, RulesCommand.markdownTable(), "regenerate with: swift run modellint rules --format markdown")
    }

    func testReadmeStartsWithTheTwoCommands() throws {
        let readme = try String(contentsOf: repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let firstBlock = try XCTUnwrap(readme.components(separatedBy: "```sh\n").dropFirst().first?.components(separatedBy: "```").first)
        XCTAssertEqual(firstBlock, "swift run modellint check Fixtures/Near.xcdatamodeld\nswift test\n")
    }

    func testEveryRuleDocumentsItself() {
        for rule in RuleRegistry.descriptions {
            XCTAssertGreaterThan(rule.summary.count, 20, rule.id)
            XCTAssertGreaterThan(rule.rationale.count, 80, rule.id)
            XCTAssertGreaterThan(rule.fix.count, 10, rule.id)
        }
    }
}
