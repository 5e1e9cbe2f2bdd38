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

/// One test for every rule's examples, as SwiftLint runs its rule descriptions: a triggering example
/// must produce exactly the marked findings, a passing one none.
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

    func testEveryRuleExample() throws {
        for rule in RuleRegistry.descriptions {
            for (index, example) in rule.examples.enumerated() {
                let directory = try makeTemporaryDirectory(self)
                let (bundle, markers) = try example.write(into: directory)
                let found: [Diagnostic]
                if example.lockFileText != nil {
                    // Lock-file rules judge the lock file beside the bundle, as `check` reads it.
                    let configuration = Configuration(baseDirectory: directory.path)
                    var workspace = Workspace(configuration: configuration, workingDirectory: directory.path)
                    workspace.history.lock = try LockFile.load(path: directory.appendingPathComponent("modellint.lock").path)
                    workspace.history.lockPath = "modellint.lock"
                    workspace.history.lockDirectory = directory.path
                    found = Linter(configuration: configuration).lint(try workspace.read(paths: ["Near.xcdatamodeld"])).diagnostics.filter { $0.ruleId == rule.id }
                } else if let source = example.sourceFile {
                    // Code rules judge the references scanned from the app's Swift files.
                    let loaded = BundleLoader.load(bundleURL: bundle, displayPath: "Near.xcdatamodeld")
                    found = SourceReferenceVerifier(configuration: Configuration(baseDirectory: directory.path))
                        .verify(SourceReference.scan(source.text, path: source.name), bundles: [loaded]).filter { $0.ruleId == rule.id }
                } else if let project = example.project {
                    // Project rules judge the project's version group, as `check` reads the project beside the bundle.
                    let file = directory.appendingPathComponent("Near.xcodeproj/project.pbxproj")
                    try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
                    try Data(project.text.utf8).write(to: file)
                    let parsed = try XcodeProject.read(path: file.path, displayPath: "Near.xcodeproj/project.pbxproj")
                    let loaded = BundleLoader.load(bundleURL: bundle, displayPath: "Near.xcdatamodeld")
                    found = ProjectVerifier(configuration: Configuration(baseDirectory: directory.path)).verify(parsed, bundle: loaded, bundlePath: "Near.xcdatamodeld")
                        .filter { $0.ruleId == rule.id }
                } else if let store = example.storeMetadata() {
                    // Store rules judge a store's metadata against the bundle, as `store` and golden stores do.
                    let loaded = BundleLoader.load(bundleURL: bundle, displayPath: "Near.xcdatamodeld")
                    found = StoreVerifier(configuration: Configuration(baseDirectory: directory.path))
                        .verify(store, path: "Store.sqlite", against: loaded, settings: nil, isGolden: example.store?.golden ?? false)
                        .filter { $0.ruleId == rule.id }
                } else if let build = example.compiledModel() {
                    // Rules about what ships judge the build against the bundle, as `verify-build` runs them.
                    let loaded = BundleLoader.load(bundleURL: bundle, displayPath: "Near.xcdatamodeld")
                    found = BuildVerifier(configuration: Configuration(baseDirectory: directory.path)).verify(build, against: loaded, settings: nil)
                        .filter { $0.ruleId == rule.id }
                } else {
                    found = lint(bundle, histories: example.shippedHistory().map { [$0] } ?? [],
                                 mappingModels: example.mappingModels.map { MappingModel(name: $0.name, source: $0.source, destination: $0.destination) })
                        .filter { $0.ruleId == rule.id }
                }
                let label = "\(rule.id) example \(index + 1)"
                guard example.triggers else {
                    XCTAssertEqual(found.map(\.message), [], "\(label) must not trigger")
                    continue
                }
                if markers.isEmpty {
                    XCTAssertEqual(found.count, 1, "\(label): \(found.map(\.message))")
                    if let expected = example.expectedFile {
                        // `../X`: a file beside the bundle (a compiled model), as the markers' `../` paths.
                        XCTAssertEqual(found.first?.file, expected.hasPrefix("../") ? String(expected.dropFirst(3)) : "Near.xcdatamodeld/" + expected, label)
                    }
                } else {
                    let expected = markers.map { marker in
                        let file = marker.file.hasPrefix("../") ? String(marker.file.dropFirst(3)) : "Near.xcdatamodeld/\(marker.file)"
                        return "\(file):\(marker.line):\(marker.column)"
                    }.sorted()
                    let actual = found.map { "\($0.file):\($0.line ?? 0):\($0.column ?? 0)" }.sorted()
                    XCTAssertEqual(actual, expected, "\(label): \(found.map(\.message))")
                }
                for diagnostic in found {
                    XCTAssertEqual(diagnostic.severity, example.severity ?? rule.severity, label)
                    // skip-version-upgrade carries the underlying problem's fix, and the progressive way out.
                    if rule.id == SkipVersionUpgradeRule.description.id {
                        XCTAssertTrue(diagnostic.fix.hasSuffix("set \"migration\": \"progressive\""), label)
                    } else {
                        XCTAssertEqual(diagnostic.fix, rule.fix, label)
                    }
                    XCTAssertFalse(diagnostic.message.isEmpty, label)
                }
            }
        }
    }

    /// A rule that does nothing must fail its examples: the harness itself can fail.
    func testHarnessCatchesASilentRule() throws {
        struct Silent: VersionRule {
            static let description = MissingInverseRule.description
            func check(_ model: Model, context: RuleContext) -> [Finding] { [] }
        }
        let example = try XCTUnwrap(Silent.description.examples.first { $0.triggers })
        let directory = try makeTemporaryDirectory(self)
        let (bundle, markers) = try example.write(into: directory)
        let linter = Linter(configuration: Configuration(baseDirectory: directory.path), rules: [Silent()])
        let found = linter.lint(BundleLoader.load(bundleURL: bundle, displayPath: "Near.xcdatamodeld"))
        XCTAssertFalse(markers.isEmpty)
        XCTAssertTrue(found.isEmpty)
    }
}

/// Every rule type in Sources/ModelLintRules is registered, once: a rule added in its own file but forgotten in
/// RuleRegistry would never run, and no other test would notice.
final class RuleRegistryTests: XCTestCase {
    func testEveryRuleTypeInTheSourcesIsRegisteredOnce() throws {
        let rules = repositoryRoot.appendingPathComponent("Sources/ModelLintRules")
        var declared: [String] = []
        let walker = FileManager.default.enumerator(at: rules, includingPropertiesForKeys: nil)
        while let url = walker?.nextObject() as? URL {
            guard url.pathExtension == "swift" else { continue }
            let text = try String(contentsOf: url, encoding: .utf8)
            let pattern = try NSRegularExpression(pattern: #"(?m)^public struct (\w+Rule): (BundleRule|VersionRule|EntityRule|ChangeRule|EntityPairRule|PairSetRule|SuppressionRule|HistoryRule|RetirementRule|BuildRule|StoreRule|ProjectRule|SourceReferenceRule|Rule)\b"#)
            for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                declared.append(String(text[Range(match.range(at: 1), in: text)!]))
            }
        }
        let registered = RuleRegistry.all.map { "\(type(of: $0))" }
        XCTAssertEqual(Set(registered).count, registered.count, "a rule registered twice")
        XCTAssertEqual(Set(declared), Set(registered), "declared but not registered: \(Set(declared).subtracting(registered)); registered but not found: \(Set(registered).subtracting(declared))")
        XCTAssertGreaterThan(declared.count, 60)
    }
}

/// Variants of the change examples: the same step, with an unchanged older version in front (`Near 0`, a copy of
/// `Near 1`), so the older -> current pair, its caches and the skip-version logic run too. The step's findings
/// must be exactly the same, and no skip-version finding may appear (the direct pair has the same problem).
final class RuleExampleVariantTests: XCTestCase {
    func testEveryTwoVersionChangeExampleHoldsWithAnOlderVersionInFront() throws {
        let categories: Set<RuleCategory> = [.changes, .renaming, .cloudKit]
        // redundant-version is about identical versions: the copy in front is one.
        let excluded: Set<String> = [RedundantVersionRule.description.id, SkipVersionUpgradeRule.description.id]
        var checked = 0
        for rule in RuleRegistry.descriptions where categories.contains(rule.category) && !excluded.contains(rule.id) {
            for (index, example) in rule.examples.enumerated() {
                guard example.versions.count == 2, example.shipped.isEmpty, example.lockFileText == nil, example.mappingModels.isEmpty,
                      case .model = example.versions[0].contents, case .model = example.versions[1].contents,
                      case .last = example.currentVersion else { continue }
                func run(_ example: RuleExample) throws -> [String] {
                    let directory = try makeTemporaryDirectory(self)
                    let (bundle, _) = try example.write(into: directory)
                    return lint(bundle).filter { $0.ruleId == rule.id || $0.ruleId == SkipVersionUpgradeRule.description.id }
                        .map { "\($0.ruleId) \($0.severity) \($0.file):\($0.line ?? 0):\($0.column ?? 0) \($0.fromVersion ?? "-")>\($0.version ?? "-")" }
                }
                var variant = example
                variant.versions.insert(("Near 0", example.versions[0].contents), at: 0)
                XCTAssertEqual(try run(variant), try run(example), "\(rule.id) example \(index + 1) with Near 0 in front")
                checked += 1
            }
        }
        XCTAssertGreaterThan(checked, 40)
    }
}
