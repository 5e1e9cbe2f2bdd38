import Foundation
import Testing
#if canImport(FoundationXML)
    import FoundationXML
#endif
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

/// Deep inheritance is linear, and every fast path gives what the plain walk gives.
@Suite struct DeepHierarchyTests {
    let temporary = TemporaryDirectories()

    /// A chain E0 <- E1 <- ... of `depth` entities, each declaring one attribute; `extra` adds text to entity k.
    static func chain(_ depth: Int, edit: (Int) -> String = { _ in "" }) -> String {
        (0..<depth).map { i in
            "<entity name=\"E\(i)\"\(i > 0 ? " parentEntity=\"E\(i - 1)\"" : "")><attribute name=\"a\(i)\" optional=\"YES\" attributeType=\"String\"/>\(edit(i))</entity>"
        }.joined(separator: "\n")
    }

    private func model(_ body: String) throws -> Model {
        guard
            case .model(let m) = ContentsParser.parse(
                data: Data((RuleExample.modelHeader + "\n" + body + "\n</model>\n").utf8), path: "m")
        else {
            throw TestSetupFailure("not a model")
        }
        return m
    }

    @Test func testDuplicatesDeepInAChainAreFoundExactly() throws {
        // E2500 redeclares a7 (inherited) and E2999 repeats the identifier of a5 under another name.
        let m = try model(
            Self.chain(3_000) { i in
                i == 2_500
                    ? "<attribute name=\"a7\" optional=\"YES\" attributeType=\"String\"/>"
                    : i == 2_999
                        ? "<attribute name=\"b\" optional=\"YES\" attributeType=\"String\" elementID=\"a5\"/>" : ""
            })
        let names = DuplicateNameRule().check(m, context: RuleContext()).map(\.message)
        #expect(names == ["E2500.a7 is declared more than once (inherited from E7)"])
        let ids = DuplicateRenamingIDRule().check(m, context: RuleContext()).map(\.message)
        #expect(
            ids == [
                "E2999.a5 and E2999.b share the renaming identifier \"a5\": inference fails and the store does not open"
            ])
    }

    /// The table worked out once per version and the per-entity walk agree, on every fixture and corpus version
    /// and on deep models (with cycles and repeated names too).
    @Test func testDeclarationTablesAgreeWithTheWalk() throws {
        var models = fixtureAndCorpusBundles().flatMap {
            BundleLoader.load(bundleURL: $0, displayPath: "b").versions.compactMap(\.model)
        }
        models.append(
            try model(
                Self.chain(200) { i in
                    i % 7 == 0 ? "<attribute name=\"a\(i / 2)\" optional=\"YES\" attributeType=\"String\"/>" : ""
                }))
        models.append(
            try model(
                Self.chain(60)
                    + "\n<entity name=\"C1\" parentEntity=\"C2\"><attribute name=\"x\" attributeType=\"String\"/></entity><entity name=\"C2\" parentEntity=\"C1\"><attribute name=\"x\" attributeType=\"String\"/></entity><entity name=\"D\" parentEntity=\"C1\"><attribute name=\"x\" attributeType=\"String\"/></entity>"
            ))
        var compared = 0
        for m in models {
            for key in [Model.DeclarationKey.name, .persistentRenamingID, .renamingID] {
                let table = m.hierarchy.earlierDeclarations(in: m.entities) { key($0) }
                for i in m.entities.indices {
                    let walked = Self.walk(m, i, key)
                    let fromTable = table[i].enumerated().compactMap { p, f in
                        f.map { "\(p):\(m.entities[$0.owner].name).\($0.property.name)" }
                    }
                    #expect(fromTable == walked, "\(m.entities[i].name) \(key)")
                    compared += 1
                }
            }
        }
        // The 200-level chain alone gives 600 comparisons; the corpus adds over a thousand when present.
        #expect(compared > (corpusRoot == nil ? 600 : 1_600))
    }

    /// The definition: the entity's effective properties, walked.
    static func walk(_ m: Model, _ i: Int, _ key: Model.DeclarationKey) -> [String] {
        let entity = m.entities[i]
        var seen: [String: String] = [:]
        var found: [String] = []
        let effective = m.effectiveProperties(of: entity)
        let own = effective.count - entity.properties.count
        for (n, (property, owner)) in effective.enumerated() {
            guard let k = key(property) else { continue }
            if let first = seen[k] {
                if n >= own { found.append("\(n - own):\(first)") }
            } else {
                seen[k] = "\(owner).\(property.name)"
            }
        }
        return found
    }

    /// Deep pairs are matched together per version, short ones pair by pair: the same pairs either way.
    @Test func testBatchedMatchingAgreesWithTheWalkOnEveryPair() throws {
        var versionPairs: [(Model, Model)] = []
        for bundle in fixtureAndCorpusBundles() {
            let models = BundleLoader.load(bundleURL: bundle, displayPath: "b").versions.compactMap(\.model)
            versionPairs += zip(models, models.dropFirst()).map { ($0, $1) }
            if let last = models.last { versionPairs += models.dropLast().map { ($0, last) } }
        }
        // Deep: a change at the root, a property moved down the chain, a rename through elementID, a kind change.
        let base = try model(Self.chain(80))
        let changed = try model(
            Self.chain(80) { i in
                switch i {
                case 0: return "<attribute name=\"z\" optional=\"YES\" attributeType=\"String\"/>"
                case 40:
                    return
                        "<attribute name=\"a3\" optional=\"YES\" attributeType=\"String\"/><attribute name=\"renamed\" optional=\"YES\" attributeType=\"String\" elementID=\"a41\"/>"
                case 60:
                    return
                        "<relationship name=\"a70\" optional=\"YES\" maxCount=\"1\" deletionRule=\"Nullify\" destinationEntity=\"E0\"/>"
                default: return ""
                }
            })
        versionPairs += [(base, changed), (changed, base)]
        var compared = 0
        for (old, new) in versionPairs {
            var pending: [(i: Int, j: Int)] = []
            var used = Set<Int>()
            for j in new.entities.indices {
                if let i = old.entityIndexByRenamingID[new.entities[j].renamingIdentifier], used.insert(i).inserted {
                    pending.append((i, j))
                }
            }
            let batched = ModelDiff.pairs(pending, old: old, new: new)
            for ((i, j), pair) in zip(pending, batched) {
                #expect(
                    Self.describe(pair) == Self.describe(ModelDiff.pairWalkingChains(i, j, old: old, new: new)),
                    "\(new.entities[j].name)")
                compared += 1
            }
        }
        // The two 80-level deep pairs alone give 160; the corpus adds several hundred when present.
        #expect(compared > (corpusRoot == nil ? 160 : 500))
    }

    static func describe(_ pair: EntityPair) -> String {
        func p(_ x: Property) -> String { "\(x.kindName) \(x.name)@\(x.location.line ?? 0)" }
        func pp(_ list: [PropertyPair]) -> String {
            list.map { "\(p($0.old))>\(p($0.new)) \($0.oldOwner) \($0.facets)" }.joined(separator: ";")
        }
        return
            "m[\(pp(pair.matchedProperties))] +\(pair.addedProperties.map(p)) -\(Set(pair.removedProperties.map(p)).sorted()) t[\(pp(pair.becameTransient))] k[\(pp(pair.kindChanged))] \(pair.facets)"
    }

    /// A change at the root of a 2,000-level chain: every lineage differs. Core Data's hash input grows with the
    /// depth, so the test's time grows with its square (25 s at 5,000 levels in a debug build, twice in every CI run);
    /// Benchmarks/bench-hostile times 10,000 levels in the release build.
    @Test func testAChangedRootOfAVeryDeepChain() throws {
        let directory = try temporary.make()
        try writeBundle(
            in: directory,
            versions: [
                ("Near 1", Self.chain(2_000)),
                ("Near 2", Self.chain(2_000) { $0 == 0 ? "<attribute name=\"z\" attributeType=\"String\"/>" : "" }),
            ], current: "Near 2")
        let found = lint(directory.appendingPathComponent("Near.xcdatamodeld"))
        #expect(found.map(\.ruleId) == ["required-attribute-without-default"])
    }
}
