import Foundation
import XCTest
import ModelLintSupport
import ModelLintModel
import ModelLintDiff
import ModelLintHistory
import ModelLintCompiled
import ModelLintStores
import ModelLintProjects
import ModelLintRules
import ModelLintEngine
import ModelLintReporting
import ModelLintCommands

final class DocumentationTests: XCTestCase {
    /// The README's rule list is generated; this keeps it from drifting from the rule types.
    func testReadmeRuleListMatchesTheRules() throws {
        let readme = try String(contentsOf: repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let begin = try XCTUnwrap(readme.range(of: "<!-- rules:begin -->\n"))
        let end = try XCTUnwrap(readme.range(of: "<!-- rules:end -->"))
        let listed = String(readme[begin.upperBound..<end.lowerBound])
        XCTAssertEqual(
            listed, RuleDocumentation.markdownTable(), "stale: run Scripts/generate-docs")
    }

    func testReadmeStartsWithTheTwoCommands() throws {
        let readme = try String(contentsOf: repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let firstBlock = try XCTUnwrap(
            readme.components(separatedBy: "```sh\n").dropFirst().first?.components(separatedBy: "```").first)
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

final class RuleDocumentationTests: XCTestCase {
    /// docs/rules is generated; this fails when a rule changed and the docs were not regenerated.
    func testCheckedInRuleDocsMatchTheGenerator() throws {
        let directory = repositoryRoot.appendingPathComponent("docs/rules")
        let expected = RuleDocumentation.files()
        for (name, text) in expected {
            let onDisk = try? String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
            XCTAssertEqual(
                onDisk, text, "docs/rules/\(name) is stale: run Scripts/generate-docs")
        }
        let present = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".md") }
        XCTAssertEqual(Set(present), Set(expected.map(\.0)), "docs/rules holds a page for a rule that no longer exists")
    }

    func testEveryRulePageHasItsParts() {
        for rule in RuleRegistry.descriptions {
            let page = RuleDocumentation.markdown(rule)
            XCTAssertTrue(page.hasPrefix("# `\(rule.id)`\n"), rule.id)
            XCTAssertTrue(page.contains("## Why\n"), rule.id)
            XCTAssertTrue(page.contains("## Fix\n"), rule.id)
            XCTAssertTrue(page.contains("## Triggers\n"), rule.id)
            XCTAssertTrue(page.contains("## Does not trigger\n"), rule.id)
        }
    }
}
