import Foundation
import XCTest
@testable import ModelLintSupport
@testable import ModelLintModel
@testable import ModelLintDiff
@testable import ModelLintHistory
@testable import ModelLintCompiled
@testable import ModelLintStores
@testable import ModelLintProjects
@testable import ModelLintRules
@testable import ModelLintEngine
@testable import ModelLintReporting
@testable import ModelLintCommands

/// Older versions compared with one newer version repeat most entity pairs; a repeat is moved from the
/// cache. Every diff must be exactly what working each pair out afresh gives.
final class EntityPairCacheTests: XCTestCase {
    /// Everything a diff holds, as text to compare.
    private func fingerprint(_ diff: ModelDiff) -> String {
        func property(_ p: Property) -> String { "\(p.kindName) \(p.name)@\(p.location)" }
        func pairs(_ list: [PropertyPair]) -> String {
            list.map { "\(property($0.old))>\(property($0.new)) \($0.oldOwner)>\($0.newOwner) \($0.facets)" }.joined(separator: "; ")
        }
        let matched = diff.matchedEntities.map { pair in
            "\(pair.old.name)@\(pair.old.location)>\(pair.new.name)@\(pair.new.location) \(pair.facets) [\(pairs(pair.matchedProperties))] "
                + "+\(pair.addedProperties.map(property)) -\(pair.removedProperties.map(property)) "
                + "t[\(pairs(pair.becameTransient))] k[\(pairs(pair.kindChanged))]"
        }
        return (matched + ["+\(diff.addedEntities.map(\.name))", "-\(diff.removedEntities.map(\.name))"]).joined(separator: "\n")
    }

    func testEveryDirectPairMatchesWorkingItOutAfresh() throws {
        let bundles = fixtureAndCorpusBundles()
        XCTAssertEqual(bundles.count, expectedBundleCount())
        var moved = 0
        for bundle in bundles {
            let loaded = BundleLoader.load(bundleURL: bundle, displayPath: bundle.lastPathComponent)
            let versions = loaded.versions.compactMap { v in v.model.map { VersionRef(name: v.name, contentsPath: v.contentsPath, model: $0) } }
            guard let current = versions.last else { continue }
            let cache = EntityPairCache()
            // Newest first, as a device furthest behind is compared last: earlier pairs fill the cache.
            for older in versions.dropLast().reversed() {
                let cached = ModelDiff(from: older, to: current, isAdjacent: false, cache: cache)
                let afresh = ModelDiff(from: older, to: current, isAdjacent: false)
                XCTAssertEqual(fingerprint(cached), fingerprint(afresh), "\(bundle.lastPathComponent): \(older.name) -> \(current.name)")
            }
            moved += cache.hits
        }
        XCTAssertGreaterThan(moved, corpusRoot == nil ? 0 : 1_000, "pairs moved from the cache")
    }
}

/// The contract `ChangeRule.judgesEachPairAlone` promises, checked on every compared pair of every bundle.
final class PairAloneRuleTests: XCTestCase {
    func testRulesThatJudgeEachPairAloneFindTheSameOnEachPairAlone() throws {
        let bundles = fixtureAndCorpusBundles()
        let rules = RuleRegistry.all.compactMap { $0 as? any ChangeRule }.filter { type(of: $0).judgesEachPairAlone }
        XCTAssertEqual(rules.count, 18)
        var findings = 0
        for bundle in bundles {
            let loaded = BundleLoader.load(bundleURL: bundle, displayPath: bundle.lastPathComponent)
            let versions = loaded.versions.compactMap { v in v.model.map { VersionRef(name: v.name, contentsPath: v.contentsPath, model: $0) } }
            guard let current = versions.last else { continue }
            let diffs = zip(versions, versions.dropFirst()).map { ModelDiff(from: $0, to: $1, isAdjacent: true) }
                + versions.dropLast().map { ModelDiff(from: $0, to: current, isAdjacent: false) }
            for diff in diffs {
                for rule in rules {
                    let whole = rule.check(diff, context: RuleContext())
                    let alone = diff.matchedEntities.flatMap { rule.check(diff.alone($0), context: RuleContext()) }
                    XCTAssertEqual(whole, alone, "\(rule.id) on \(bundle.lastPathComponent) \(diff.from.name) -> \(diff.to.name)")
                    findings += whole.count
                }
            }
        }
        XCTAssertGreaterThan(findings, corpusRoot == nil ? 5 : 1_000)
    }
}
