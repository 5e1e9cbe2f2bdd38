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
import ModelLintGather

/// What every rule's examples must have; the examples themselves run in RuleExampleHarness.swift.
final class RuleExamplesTests: XCTestCase {
    func testEveryRuleHasTriggeringAndPassingExamples() {
        for rule in RuleRegistry.descriptions {
            XCTAssertTrue(rule.examples.contains { $0.triggers }, "\(rule.id) has no triggering example")
            XCTAssertTrue(rule.examples.contains { !$0.triggers }, "\(rule.id) has no passing example")
        }
    }

    func testRuleIdsAreUniqueAndWellFormed() {
        let ids = RuleRegistry.descriptions.map(\.id)
        XCTAssertEqual(Set(ids).count, ids.count)
        for id in ids {
            XCTAssertNotNil(id.range(of: "^[a-z]+(-[a-z]+)*$", options: .regularExpression), id)
        }
    }

    /// A rule that does nothing must fail its examples: the harness itself can fail.
    func testHarnessCatchesASilentRule() throws {
        struct Silent: VersionRule {
            static let description = MissingInverseRule.description
            func check(_ model: Model, context: RuleContext) -> [Finding] { [] }
        }
        let example = try XCTUnwrap(Silent.description.examples.first { $0.triggers })
        let problems = try RuleExampleHarness.problems(of: example, rule: Silent.description, rules: [Silent()])
        XCTAssertEqual(problems.count, 1)
        XCTAssertTrue(
            problems.first?.hasPrefix("expected findings at Near.xcdatamodeld/Near 1.xcdatamodel/contents:") == true,
            "\(problems)")
        // And a wrong message is caught.
        let worded = try RuleExampleHarness.problems(
            of: example.expectingMessage("something else"), rule: MissingInverseRule.description)
        XCTAssertEqual(worded.count, 1, "\(worded)")
    }
}

/// Every rule type in Sources/ModelLint/Rules is registered, once: a rule added in its own file but forgotten in
/// RuleRegistry would never run, and no other test would notice.
final class RuleRegistryTests: XCTestCase {
    /// Every file named `*Rule.swift` in the rules stage declares exactly one rule, the type the file is named
    /// after, and it is registered; no rule type is declared anywhere else. Files that declare a kind's protocol
    /// (`Kinds/RetirementRule.swift`) declare no struct. Read by file, whatever the type's access level.
    func testEveryRuleFileDeclaresExactlyOneRegisteredRule() throws {
        let rules = repositoryRoot.appendingPathComponent("Sources/ModelLint/Rules")
        let structs = try NSRegularExpression(
            pattern: #"(?m)^\s*(?:public |package |internal |private |fileprivate )?(?:final )?struct (\w+)\b"#)
        var declared: [String] = []
        let walker = FileManager.default.enumerator(at: rules, includingPropertiesForKeys: nil)
        while let url = walker?.nextObject() as? URL {
            guard url.pathExtension == "swift" else { continue }
            let text = try String(contentsOf: url, encoding: .utf8)
            let names = structs.matches(in: text, range: NSRange(text.startIndex..., in: text)).map {
                String(text[Range($0.range(at: 1), in: text)!])
            }
            let stem = url.deletingPathExtension().lastPathComponent
            let ruleTypes = names.filter { $0.hasSuffix("Rule") }
            if stem.hasSuffix("Rule") && !text.contains("package protocol \(stem)") {
                XCTAssertEqual(ruleTypes, [stem], "\(url.lastPathComponent) must declare exactly the rule \(stem)")
            } else {
                XCTAssertEqual(ruleTypes, [], "\(url.lastPathComponent) declares a rule outside a file of its own")
            }
            declared += ruleTypes
        }
        let registered = RuleRegistry.all.map { "\(type(of: $0))" }
        XCTAssertEqual(Set(registered).count, registered.count, "a rule registered twice")
        XCTAssertEqual(
            Set(declared), Set(registered),
            "declared but not registered: \(Set(declared).subtracting(registered)); registered but not found: \(Set(registered).subtracting(declared))"
        )
        XCTAssertGreaterThan(declared.count, 60)
    }

    /// `RuleRegistry.all` lists the rules section by section, in `RuleCategory` order (the catalog's order in
    /// `modellint rules`, the docs and SARIF).
    func testTheRegistryIsInCatalogOrder() {
        let order = RuleCategory.allCases
        let positions = RuleRegistry.all.map { order.firstIndex(of: $0.description.category)! }
        for (i, pair) in zip(positions, positions.dropFirst()).enumerated() where pair.0 > pair.1 {
            XCTFail(
                "\(RuleRegistry.all[i + 1].id) (\(order[pair.1].rawValue)) is listed after a rule of \(order[pair.0].rawValue)"
            )
        }
    }
}
