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

/// Entity rules judge each distinct neighborhood once per bundle; the versions that repeat it get the
/// findings moved onto their own elements. Nothing may differ from judging every version whole.
@Suite struct RepeatedEntitiesTests {
    let temporary = TemporaryDirectories()

    private let thing = """
        <entity name="Thing">
            <attribute name="count" optional="YES" attributeType="Integer 32" defaultValueString="0.5"/>
            <relationship name="owner" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Owner"/>
        </entity>
        <entity name="Owner">
            <attribute name="name" optional="YES" attributeType="String"/>
        </entity>
        """

    private func models(_ bundle: URL) -> [Model] {
        BundleLoader.load(bundleURL: bundle, displayPath: bundle.lastPathComponent).versions.compactMap(\.model)
    }

    /// Every version judged whole by every single-version rule: what the shortcut must reproduce.
    private func judgedWhole(_ models: [Model], _ rules: [RuleSet.VersionJudge], _ context: RuleContext = RuleContext())
        -> [[[Finding]]]
    {
        models.map { model in rules.map { $0.check(model, context: context) } }
    }

    @Test func testRepeatedEntityFindingsMoveToTheRepeatingVersionsLines() throws {
        let directory = try temporary.make()
        // Near 2 inserts an entity above Thing: same neighborhood, every line moved down by 3.
        let bundle = try writeBundle(
            in: directory,
            versions: [
                ("Near 1", thing),
                (
                    "Near 2",
                    "<entity name=\"Extra\">\n    <attribute name=\"x\" optional=\"YES\" attributeType=\"String\"/>\n</entity>\n"
                        + thing
                ),
            ], current: "Near 2")
        // Each version's own findings, as the single-version rules give them (before repeats are collapsed).
        let two = RuleSet([InvalidDefaultValueRule(), MissingInverseRule()]).versions
        let perVersion = Linter(configuration: Configuration(baseDirectory: directory.path)).versionFindings(
            models(bundle), rules: two, context: RuleContext())
        let found = perVersion.enumerated().flatMap { v, byRule in byRule.joined().map { ($0, v) } }
        #expect(
            (found.map { f, v in
                "Near \(v + 1) \(f.entity ?? "-").\(f.property ?? "-") @\(f.location.line ?? 0):\(f.location.column ?? 0)"
            }) == [
                "Near 1 Thing.count @4:5", "Near 1 Thing.owner @5:5", "Near 2 Thing.count @7:5",
                "Near 2 Thing.owner @8:5",
            ])
        #expect(found[2].0.location.file == "Near.xcdatamodeld/Near 2.xcdatamodel/contents")
        #expect(found[3].0.message == "Thing.owner has no inverse")
        // Reported: once each, at the newest occurrence, naming both versions; shipped in Near 1, so history (notes).
        let reported = lint(bundle).filter { $0.ruleId == "invalid-default-value" || $0.ruleId == "missing-inverse" }
        #expect(
            (reported.map { "\($0.ruleId) \($0.version ?? "-") @\($0.line ?? 0) \($0.severity) \($0.versions ?? [])" })
                == [
                    "invalid-default-value Near 2 @7 note [\"Near 1\", \"Near 2\"]",
                    "missing-inverse Near 2 @8 note [\"Near 1\", \"Near 2\"]",
                ])

        let loaded = models(bundle)
        let repeated = RepeatedEntities(loaded)
        #expect((repeated.origins[1].map { $0.map { "\($0.group):\($0.item)" } ?? "new" }) == ["new", "0:0", "0:1"])
        let rules = RuleSet.registry.versions
        let linter = Linter(configuration: Configuration(baseDirectory: directory.path))
        #expect(linter.versionFindings(loaded, rules: rules, context: RuleContext()) == judgedWhole(loaded, rules))
    }

    @Test func testAChangedDestinationMakesANewNeighborhood() throws {
        let directory = try temporary.make()
        // Only Owner changes in Near 2, but Thing points at it: Thing is judged again.
        let bundle = try writeBundle(
            in: directory,
            versions: [
                ("Near 1", thing),
                (
                    "Near 2",
                    thing.replacingOccurrences(of: "<attribute name=\"name\"", with: "<attribute name=\"title\"")
                ),
            ], current: "Near 2")
        let repeated = RepeatedEntities(models(bundle))
        #expect((repeated.origins[1].map { $0 == nil }) == [true, true])
    }

    @Test func testDuplicateEntityNamesAreJudgedWhole() throws {
        let directory = try temporary.make()
        let twice = thing + "\n<entity name=\"Owner\"/>"
        let bundle = try writeBundle(
            in: directory, versions: [("Near 1", twice), ("Near 2", twice)], current: "Near 2")
        let loaded = models(bundle)
        #expect((RepeatedEntities(loaded).origins[1].map { $0 == nil }) == [true, true, true])
        let rules = RuleSet.registry.versions
        let linter = Linter(configuration: Configuration(baseDirectory: directory.path))
        let findings = linter.versionFindings(loaded, rules: rules, context: RuleContext())
        #expect(findings == judgedWhole(loaded, rules))
        #expect(
            (findings[1].flatMap { $0 }.filter { $0.message == "entity Owner is declared more than once" }.count) == 1)
    }

    @Test func testAFindingOutsideTheNeighborhoodIsNotMoved() throws {
        let directory = try temporary.make()
        let bundle = try writeBundle(
            in: directory, versions: [("Near 1", thing), ("Near 2", "\n" + thing)], current: "Near 2")
        let loaded = models(bundle)
        let inside = Finding("inside", at: loaded[0].entities[0].properties[0].location)
        let outside = Finding("outside", at: loaded[0].location)
        let moved = RepeatedEntities.move(
            [inside], from: loaded[0].entities[0], in: loaded[0], to: loaded[1].entities[0], in: loaded[1])
        #expect(moved?.map(\.location.line) == [5])
        #expect(
            RepeatedEntities.move(
                [inside, outside], from: loaded[0].entities[0], in: loaded[0], to: loaded[1].entities[0], in: loaded[1])
                == nil)
    }

    /// A rule that says it reads only its entity (`readsOnlyItsEntity`) finds the same about every entity of every
    /// version of every bundle alone in a model of its own, under another context: the engine shares its findings
    /// among entities of equal content wherever they stand.
    @Test func testARuleThatReadsOnlyItsEntityFindsTheSameAboutItAlone() throws {
        let rules = RuleSet.registry.versions.compactMap { judge -> (any EntityRule)? in
            guard case .entities(let rule) = judge, type(of: rule).readsOnlyItsEntity else { return nil }
            return rule
        }
        #expect(
            rules.map(\.id).sorted() == [
                "derived-attribute-invalid", "invalid-default-value", "missing-inverse",
                "renaming-identifier-xml-attribute",
                "reserved-property-name", "suspicious-default-value", "unknown-attribute-type",
            ])
        var found = 0
        for bundle in fixtureAndCorpusBundles() {
            for model in models(bundle) {
                for entity in model.entities {
                    let alone = Model(location: model.location, entities: [entity])
                    for rule in rules {
                        let inModel = rule.check(entity, in: model, context: RuleContext())
                        #expect(
                            inModel == rule.check(entity, in: alone, context: RuleContext(cloudKitOverride: true)),
                            "\(rule.id) on \(bundle.lastPathComponent) \(entity.name)")
                        found += inModel.count
                    }
                }
            }
        }
        #expect(found > (corpusRoot == nil ? 5 : 100))
    }

    /// The real test: every corpus bundle and fixture, every version, every single-version rule.
    @Test func testEveryBundleFindsExactlyWhatJudgingEachVersionWholeFinds() throws {
        let bundles = fixtureAndCorpusBundles()
        #expect(bundles.count == expectedBundleCount())
        let rules = RuleSet.registry.versions
        let linter = Linter(configuration: Configuration(baseDirectory: repositoryRoot.path))
        for context in [RuleContext(), RuleContext(cloudKitOverride: true)] {
            for bundle in bundles {
                let loaded = models(bundle)
                #expect(
                    linter.versionFindings(loaded, rules: rules, context: context)
                        == judgedWhole(loaded, rules, context), Comment(rawValue: bundle.lastPathComponent))
            }
        }
    }
}
