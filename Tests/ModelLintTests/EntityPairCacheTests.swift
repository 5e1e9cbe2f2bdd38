import Foundation
import Testing
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

/// Older versions compared with one newer version repeat most entity pairs; a repeat is moved from the
/// cache. Every diff must be exactly what working each pair out afresh gives.
@Suite struct EntityPairCacheTests {
    /// Everything a diff holds, as text to compare.
    private func fingerprint(_ diff: ModelDiff) -> String {
        func property(_ p: Property) -> String { "\(p.kindName) \(p.name)@\(p.location)" }
        func pairs(_ list: [PropertyPair]) -> String {
            list.map { "\(property($0.old))>\(property($0.new)) \($0.oldOwner)>\($0.newOwner) \($0.facets)" }.joined(
                separator: "; ")
        }
        let matched = diff.matchedEntities.map { pair in
            "\(pair.old.name)@\(pair.old.location)>\(pair.new.name)@\(pair.new.location) \(pair.facets) [\(pairs(pair.matchedProperties))] "
                + "+\(pair.addedProperties.map(property)) -\(pair.removedProperties.map(property)) "
                + "t[\(pairs(pair.becameTransient))] k[\(pairs(pair.kindChanged))]"
        }
        return (matched + ["+\(diff.addedEntities.map(\.name))", "-\(diff.removedEntities.map(\.name))"]).joined(
            separator: "\n")
    }

    @Test func testEveryDirectPairMatchesWorkingItOutAfresh() throws {
        let bundles = fixtureAndCorpusBundles()
        #expect(bundles.count == expectedBundleCount())
        var moved = 0
        for bundle in bundles {
            let loaded = BundleLoader.load(bundleURL: bundle, displayPath: bundle.lastPathComponent)
            let versions = loaded.versions.compactMap { v in
                v.model.map { VersionRef(name: v.name, contentsPath: v.contentsPath, model: $0) }
            }
            guard let current = versions.last else { continue }
            let cache = EntityPairCache()
            // Newest first, as a device furthest behind is compared last: earlier pairs fill the cache.
            for older in versions.dropLast().reversed() {
                let cached = ModelDiff(from: older, to: current, isAdjacent: false, cache: cache)
                let afresh = ModelDiff(from: older, to: current, isAdjacent: false)
                #expect(
                    fingerprint(cached) == fingerprint(afresh),
                    "\(bundle.lastPathComponent): \(older.name) -> \(current.name)")
                // The older side whole, every field and location: a moved pair's older properties are the version's.
                func olds(_ diff: ModelDiff) -> [[Property]] {
                    diff.matchedEntities.map { pair in
                        pair.matchedProperties.map(\.old) + pair.removedProperties + pair.becameTransient.map(\.old)
                            + pair.kindChanged.map(\.old)
                    }
                }
                #expect(olds(cached) == olds(afresh), "\(bundle.lastPathComponent): \(older.name) -> \(current.name)")
            }
            moved += cache.hits
        }
        #expect(moved > (corpusRoot == nil ? 0 : 1_000), "pairs moved from the cache")
    }
}

/// The fast path the engine takes for `EntityPairRule`s, checked on every compared pair of every bundle: an older ->
/// current pair that repeats an earlier one's entity pair (same older lineage, same newer entity) gets that pair's
/// findings instead of being judged (only the first pair a problem appears on is shown; the later ones add their
/// version to it). Judging every pair must find the same problems: the same identities, subjects and severities.
@Suite struct EntityPairRuleTests {
    @Test func testRepeatedEntityPairsOfDirectPairsFindTheSame() throws {
        let bundles = fixtureAndCorpusBundles()
        let rules = RuleSet.registry.pairs.compactMap { judge -> (any EntityPairRule)? in
            if case .entityPairs(let rule) = judge { return rule } else { return nil }
        }
        #expect(rules.count >= 19, "the entity pair rules")
        var findings = 0
        var repeats = 0
        for bundle in bundles {
            let loaded = BundleLoader.load(bundleURL: bundle, displayPath: bundle.lastPathComponent)
            let versions = loaded.readableVersions
            guard let current = versions.last else { continue }
            let diffs = versions.dropLast().map { ModelDiff(from: $0, to: current, isAdjacent: false) }
            for rule in rules {
                struct Key: Hashable {
                    var oldLineage: Int
                    var newEntity: Int
                }
                var first: [Key: [String]] = [:]
                for diff in diffs where diff.from.model.entityIndexByName.count == diff.from.model.entities.count {
                    for pair in diff.matchedEntities {
                        let found = rule.check(pair, of: diff.versions, context: RuleContext()).map(\.finding).map {
                            f in
                            "\(f.identity ?? "-") \(f.entity ?? "-").\(f.property ?? "-") \(f.severity?.rawValue ?? "-")"
                        }
                        let key = Key(
                            oldLineage: diff.from.model.keys.lineage[pair.oldIndex],
                            newEntity: current.model.firstIndexOfName[pair.newIndex])
                        if let earlier = first[key] {
                            #expect(
                                found == earlier,
                                "\(rule.id) on \(bundle.lastPathComponent) \(diff.from.name) -> \(current.name) \(pair.new.name)"
                            )
                            repeats += 1
                        } else {
                            first[key] = found
                        }
                        findings += found.count
                    }
                }
            }
        }
        #expect(findings > (corpusRoot == nil ? 5 : 1_000))
        #expect(repeats > (corpusRoot == nil ? 10 : 10_000))
    }

    /// Every step and every older -> current pair of every fixture and corpus bundle, as the diff makes them.
    private func everyComparedPair() -> [(bundle: URL, diff: ModelDiff)] {
        fixtureAndCorpusBundles().flatMap { bundle -> [(bundle: URL, diff: ModelDiff)] in
            let versions = BundleLoader.load(bundleURL: bundle, displayPath: bundle.lastPathComponent).readableVersions
            guard let current = versions.last else { return [] }
            let steps = zip(versions, versions.dropFirst()).map { ModelDiff(from: $0, to: $1, isAdjacent: true) }
            let direct = versions.dropLast().map { ModelDiff(from: $0, to: current, isAdjacent: false) }
            return (steps + direct).map { (bundle, $0) }
        }
    }

    /// The engine judges no unchanged pair (equal lineage keys: the diff matches nothing in it). Every entity pair
    /// rule finds nothing on each one of every step and older -> current pair of every bundle, as made by the diff
    /// and as worked out property by property.
    @Test func testNoRuleFindsAnythingOnAnUnchangedPair() throws {
        let rules = RuleSet.registry.pairs.compactMap { judge -> (any EntityPairRule)? in
            if case .entityPairs(let rule) = judge { return rule } else { return nil }
        }
        var unchanged = 0
        for (bundle, diff) in everyComparedPair() {
            for pair in diff.matchedEntities where pair.isUnchanged {
                let worked = ModelDiff.pairWalkingChains(
                    pair.oldIndex, pair.newIndex, old: diff.from.model, new: diff.to.model)
                for rule in rules {
                    for judged in [pair, worked] {
                        let found = rule.check(judged, of: diff.versions, context: RuleContext())
                        #expect(
                            found.map(\.finding.message) == [],
                            "\(rule.id) on \(bundle.lastPathComponent) \(diff.between) \(pair.new.name)")
                    }
                }
                unchanged += 1
            }
        }
        #expect(unchanged > (corpusRoot == nil ? 20 : 10_000))
    }

    /// `uniqueness-constraint-added` passes over unchanged pairs: worked out property by property instead (so not
    /// marked unchanged), every unchanged pair of every step and older -> current pair of every bundle gains no
    /// constraint.
    @Test func testNoConstraintIsGainedOnAnUnchangedPair() throws {
        var unchanged = 0
        var constrained = 0
        for (bundle, diff) in everyComparedPair() {
            var worked = diff
            worked.matchedEntities = diff.matchedEntities.filter(\.isUnchanged).map { pair in
                ModelDiff.pairWalkingChains(pair.oldIndex, pair.newIndex, old: diff.from.model, new: diff.to.model)
            }
            #expect(!worked.matchedEntities.contains { $0.isUnchanged })
            unchanged += worked.matchedEntities.count
            constrained += worked.matchedEntities.filter { !$0.new.uniquenessConstraints.isEmpty }.count
            #expect(
                UniquenessConstraintAddedRule().check(worked, context: RuleContext()).map(\.finding.message) == [],
                "\(bundle.lastPathComponent) \(diff.between)")
        }
        #expect(unchanged > (corpusRoot == nil ? 20 : 10_000))
        // The corpus's unchanged pairs include constrained entities (no fixture keeps one unchanged).
        if corpusRoot != nil { #expect(constrained > 100) }
    }

    /// Rules that compare a property's two sides read `EntityPair.changedProperties`, the matched pairs with some facet.
    /// Every matched pair without one, of every step and older -> current pair of every bundle, is handed to every
    /// change rule as if it had changed (marked with the User Info facet, which no rule reads): none finds anything
    /// about it. (`redundant-version` is left out: it asks whether anything changed at all.)
    @Test func testNoRuleFindsAnythingOnAPropertyPairWithoutFacets() throws {
        var handed = 0
        for (bundle, diff) in everyComparedPair() {
            for pair in diff.matchedEntities where !pair.isUnchanged {
                let same = pair.matchedProperties.filter(\.facets.isEmpty).map { property in
                    var marked = property
                    marked.facets = [.userInfo]
                    return marked
                }
                guard !same.isEmpty else { continue }
                let marked = EntityPair(
                    old: pair.old, new: pair.new, oldIndex: pair.oldIndex, newIndex: pair.newIndex, facets: [],
                    matchedProperties: same)
                #expect(marked.changedProperties.count == same.count)
                var alone = diff
                alone.matchedEntities = [marked]
                alone.addedEntities = []
                alone.removedEntities = []
                for judge in RuleSet.registry.pairs {
                    let found: [ChangeFinding]
                    switch judge {
                    case .entityPairs(let rule):
                        found = rule.check(marked, of: diff.versions, context: RuleContext())
                    case .diff(let rule):
                        guard !(rule is RedundantVersionRule) else { continue }
                        found = rule.check(alone, context: RuleContext())
                    }
                    #expect(
                        (found.filter { $0.finding.property != nil }.map(\.finding.message)) == [],
                        "\(judge.description.id) on \(bundle.lastPathComponent) \(diff.between) \(pair.new.name)")
                }
                handed += same.count
            }
        }
        #expect(handed > (corpusRoot == nil ? 20 : 10_000))
    }
}

/// Properties repeated from another version share their fields box, and the diff compares them by the box: still,
/// a relationship's destination is the versions' to say, and a changed renaming identifier of it is a facet.
@Suite struct SharedPropertyFacetTests {
    @Test func testARepeatedRelationshipSeesItsDestinationsRenamingIdentifierChange() throws {
        let relationship =
            "<relationship name=\"other\" optional=\"YES\" maxCount=\"1\" deletionRule=\"Nullify\" destinationEntity=\"Other\"/>"
        let attribute = "<attribute name=\"title\" optional=\"YES\" attributeType=\"String\"/>"
        func contents(_ body: String) -> Data { Data((RuleExample.modelHeader + "\n" + body + "\n</model>\n").utf8) }
        let cache = EntitySourceCache()
        let versions = [
            "<entity name=\"Item\">\(relationship)\(attribute)</entity>\n<entity name=\"Other\"/>",
            // Item changes (a new attribute), so its two earlier properties are read from the cache.
            "<entity name=\"Item\">\(relationship)\(attribute)<attribute name=\"added\" optional=\"YES\" attributeType=\"String\"/></entity>\n<entity name=\"Other\" elementID=\"Before\"/>",
        ].enumerated().map { i, body -> Model? in
            guard
                case .model(let model) = ContentsParser.parse(data: contents(body), path: "\(i)/contents", cache: cache)
            else { return nil }
            return model
        }
        let old = try #require(versions[0])
        let new = try #require(versions[1])
        guard case .relationship(let before) = old.entities[0].properties[0],
            case .relationship(let after) = new.entities[0].properties[0],
            case .attribute(let titleBefore) = old.entities[0].properties[1],
            case .attribute(let titleAfter) = new.entities[0].properties[1]
        else {
            Issue.record("unexpected properties")
            return
        }
        #expect(before.fields === after.fields && titleBefore.fields === titleAfter.fields)
        let diff = ModelDiff(
            from: VersionRef(name: "1", contentsPath: "0/contents", model: old),
            to: VersionRef(name: "2", contentsPath: "1/contents", model: new), isAdjacent: true)
        let pair = try #require(diff.matchedEntities.first { $0.new.name == "Item" })
        #expect(pair.matchedProperties.map(\.new.name) == ["other", "title"])
        #expect(pair.matchedProperties.map(\.facets) == [[.destination], []])
        #expect(pair.changedProperties.map(\.new.name) == ["other"])
    }
}
