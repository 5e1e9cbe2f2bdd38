import Foundation
import XCTest
import ModelLintSupport
import ModelLintModel
import ModelLintRules
import ModelLintEngine
import ModelLintGather

/// `--only-new`: REF's run takes what the work tree's run judged of the versions both share, and judges the rest.
/// Taking must find exactly what judging finds, and happen only with the same rules and rule context.
final class JudgementExchangeTests: XCTestCase {
    private let paths = [
        "Fixtures/Precision/OneProblem.xcdatamodeld", "Fixtures/CloudKit/Synced.xcdatamodeld",
        "Fixtures/Caches/Repeats.xcdatamodeld",
    ]

    private func load(_ path: String) -> ModelBundle {
        BundleLoader.load(
            bundleURL: repositoryRoot.appendingPathComponent(path), displayPath: (path as NSString).lastPathComponent)
    }

    /// The bundle as it was before its newest version was added, every other version shared with the work tree.
    private func beforeNewest(_ bundle: ModelBundle, shared: Bool = true) -> ModelBundle {
        var atRef = bundle
        atRef.versions.removeLast()
        atRef.declaredCurrentVersion = atRef.versions.last?.name
        if shared { atRef.workTreeVersions = Set(atRef.versions.map { ExactName($0.name) }) }
        return atRef
    }

    /// Sorted: a bundle's diagnostics are put in report order by the report, not by `lint`.
    private func rendered(_ diagnostics: [Diagnostic]) -> [String] {
        diagnostics.map {
            "\($0.ruleId) \($0.severity) \($0.file):\($0.line ?? 0):\($0.column ?? 0) \($0.version ?? "-") \($0.message)"
        }.sorted()
    }

    private var plain: Linter { Linter(configuration: Configuration(baseDirectory: repositoryRoot.path)) }

    func testTakingWhatWasOfferedFindsWhatJudgingFinds() {
        for path in paths {
            let bundle = load(path)
            let atRef = beforeNewest(bundle)
            let expected = rendered(plain.lint(atRef))
            XCTAssertFalse(rendered(plain.lint(bundle)).isEmpty, "\(path) has findings to compare")
            let exchange = JudgementExchange()
            var offering = plain
            offering.judgements = .offering(exchange)
            var taking = plain
            taking.judgements = .taking(exchange)
            // The taker starts first and waits for the offer.
            let atRefRun = Pending { [taking] in taking.lint(atRef) }
            XCTAssertEqual(rendered(offering.lint(bundle)), rendered(plain.lint(bundle)), path)
            exchange.close()
            XCTAssertEqual(rendered(atRefRun.value), expected, path)
            XCTAssertEqual(
                exchange.taken,
                JudgementExchange.Taken(versions: atRef.versions.count, steps: atRef.versions.count - 1), path)
        }
    }

    func testAnOfferOfOtherRulesOrAnotherContextIsNotTaken() {
        let bundle = load(paths[0])
        let atRef = beforeNewest(bundle)
        let expected = rendered(plain.lint(atRef))
        let otherRules = Linter(
            configuration: Configuration(baseDirectory: repositoryRoot.path),
            rules: RuleRegistry.all.filter { $0.description.id != "entity-removed" })
        let otherContext = Linter(
            configuration: Configuration(baseDirectory: repositoryRoot.path), migration: .progressive)
        for other in [otherRules, otherContext] {
            let exchange = JudgementExchange()
            var offering = other
            offering.judgements = .offering(exchange)
            var taking = plain
            taking.judgements = .taking(exchange)
            _ = offering.lint(bundle)
            exchange.close()
            XCTAssertEqual(rendered(taking.lint(atRef)), expected)
            XCTAssertEqual(exchange.taken, JudgementExchange.Taken())
        }
    }

    /// Closed with nothing offered: REF's run judges everything itself. Sharing nothing: it does not wait at all.
    func testNothingOfferedOrNothingSharedIsJudgedHere() {
        let bundle = load(paths[0])
        let exchange = JudgementExchange()
        var taking = plain
        taking.judgements = .taking(exchange)
        // Never closed: a run that shares no version must not wait.
        XCTAssertEqual(
            rendered(taking.lint(beforeNewest(bundle, shared: false))),
            rendered(plain.lint(beforeNewest(bundle, shared: false))))
        exchange.close()
        XCTAssertEqual(rendered(taking.lint(beforeNewest(bundle))), rendered(plain.lint(beforeNewest(bundle))))
        XCTAssertEqual(exchange.taken, JudgementExchange.Taken())
    }
}
