import Foundation
import Testing
import ModelLintSupport
import ModelLintTestSupport
import ModelLintModel
import ModelLintDiff
import ModelLintHistory
import ModelLintCompiled
import ModelLintStores
import ModelLintProjects
import ModelLintSwiftData
import ModelLintRules
import ModelLintEngine
import ModelLintCommands
import ModelLintGather

/// One rule example, named as the test it is ("missing-inverse example 2").
struct RuleExampleCase: Sendable, CustomTestStringConvertible {
    var ruleID: String
    var index: Int

    var rule: RuleDescription { RuleRegistry.description(for: ruleID)! }
    var example: RuleExample { rule.examples[index] }
    var testDescription: String { "\(ruleID) example \(index + 1)" }

    static let all: [RuleExampleCase] = RuleRegistry.descriptions.flatMap { rule in
        rule.examples.indices.map { RuleExampleCase(ruleID: rule.id, index: $0) }
    }
}

/// Every rule's examples, each its own test, as SwiftLint runs its rule descriptions: a triggering example must
/// produce exactly the marked findings (at the example's severity, with its message when it gives one), a passing
/// one none. Then each runs again in variants that exercise what the engine does around a rule: an unchanged
/// older version in front (the older -> current pair, its caches and skip-version logic), the example's versions
/// no longer current (findings become notes), and a `modellint:disable` entry on each marked element (silenced).
/// A failure is reported at the example, in the rule's file.
@Suite struct RuleExampleHarness {
    @Test(arguments: RuleExampleCase.all)
    func example(_ c: RuleExampleCase) throws {
        for problem in try Self.problems(of: c.example, rule: c.rule) {
            Issue.record(
                Comment(rawValue: "\(c.testDescription): \(problem)"), sourceLocation: Self.location(of: c.example))
        }
    }

    @Test(arguments: RuleExampleCase.all.filter { Self.olderInFront($0) != nil })
    func withAnUnchangedOlderVersionInFront(_ c: RuleExampleCase) throws {
        let variant = try #require(Self.olderInFront(c))
        var expected = try Self.summaries(of: c.example, rule: c.rule)
        // A single-version finding the shipped Near 0 already had is history: the same finding, as a note.
        if Self.subject(of: c.ruleID) == .version {
            expected = expected.map { summary in
                var parts = summary.split(separator: " ", maxSplits: 2).map(String.init)
                if parts.count == 3, parts[0] == c.ruleID { parts[1] = "note" }
                return parts.joined(separator: " ")
            }
        }
        let found = try Self.summaries(of: variant, rule: c.rule)
        if found != expected {
            Issue.record(
                Comment(rawValue: "\(c.testDescription) with Near 0 in front: \(found) instead of \(expected)"),
                sourceLocation: Self.location(of: c.example))
        }
    }

    @Test(arguments: RuleExampleCase.all.filter { Self.notCurrent($0) != nil })
    func noLongerCurrent(_ c: RuleExampleCase) throws {
        let (variant, version) = try #require(Self.notCurrent(c))
        let found = try Self.findings(of: variant, rules: RuleRegistry.all).filter {
            $0.ruleId == c.ruleID && $0.version == version
        }
        if found.isEmpty || found.contains(where: { $0.severity != .note }) {
            Issue.record(
                Comment(
                    rawValue:
                        "\(c.testDescription) with a later current version: \(found.map { "\($0.severity) \($0.message)" }), expected notes"
                ), sourceLocation: Self.location(of: c.example))
        }
    }

    @Test(arguments: RuleExampleCase.all.filter { Self.suppressed($0) != nil })
    func silencedByModellintDisable(_ c: RuleExampleCase) throws {
        let variant = try #require(Self.suppressed(c))
        let found = try Self.findings(of: variant, rules: RuleRegistry.all).filter { $0.ruleId == c.ruleID }
        if !found.isEmpty {
            Issue.record(
                Comment(
                    rawValue:
                        "\(c.testDescription) with modellint:disable on the marked elements still finds \(found.map(\.message))"
                ), sourceLocation: Self.location(of: c.example))
        }
    }

    /// Enough variants of each kind ran that a filter gone wrong would show.
    @Test func variantsCoverTheCatalog() {
        #expect(RuleExampleCase.all.count > 200)
        #expect(RuleExampleCase.all.filter { Self.olderInFront($0) != nil }.count > 120)
        #expect(RuleExampleCase.all.filter { Self.notCurrent($0) != nil }.count > 60)
        #expect(RuleExampleCase.all.filter { Self.suppressed($0) != nil }.count > 50)
    }

    static func location(of example: RuleExample) -> Testing.SourceLocation {
        let name = (example.filePath as NSString).lastPathComponent
        return Testing.SourceLocation(
            fileID: "ModelLintRules/\(name)", filePath: example.filePath, line: example.line, column: 1)
    }

    // MARK: Running an example

    /// What `example` finds for `rule`, run through the engine its kind belongs to, as `check`, `verify-build` or
    /// `store` would run it.
    static func findings(of example: RuleExample, rules: [any Rule]) throws -> [Diagnostic] {
        try run(example, rules: rules).diagnostics
    }

    /// The example written into a directory of its own (removed afterwards), what it finds, its markers, and the
    /// paths of the SwiftData schema sets it read (whose findings say their fix in Swift).
    static func run(_ example: RuleExample, rules: [any Rule]) throws -> (
        diagnostics: [Diagnostic], markers: [(file: String, line: Int, column: Int)], swiftDataBundles: Set<String>
    ) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "modellint-example-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        if !example.swiftFiles.isEmpty {
            // SwiftData rules judge the schema sets `check` reads from a folder of Swift files.
            let markers = try example.writeSwiftFiles(into: directory)
            let configuration = Configuration(baseDirectory: directory.path)
            let workspace = Workspace(configuration: configuration, workingDirectory: directory.path)
            var input = try workspace.read(paths: ["App"])
            if !example.shippedSwiftFiles.isEmpty {
                // The release's sets, read in memory as the git reader reads a revision's files.
                let files = example.shippedSwiftFiles.map { name, text in
                    SwiftSourceFile(
                        path: "v1.0:App/" + name, bytes: Array(text.filter { $0 != RuleExample.marker }.utf8))
                }
                let then = SwiftDataReader.schemaSets(files, moduleName: "App")
                for i in input.bundles.indices {
                    guard let set = input.bundles[i].swiftData, let old = then.first(where: { $0.name == set.name })
                    else { continue }
                    let released: Bool
                    if case .released = example.shippedSource { released = true } else { released = false }
                    let versions = released ? old.bundle.versions : Array(old.bundle.versions.dropLast())
                    input.bundles[i].histories = [
                        ShippedHistory(source: example.shippedSource, versions: HistoryOptions.versions(versions))
                    ]
                }
            }
            let found = Engine(configuration: configuration, rules: rules).run(.app(input))
            let swiftDataBundles = Set(input.bundles.filter { $0.swiftData != nil }.map(\.bundle.path))
            return (Diagnostic.sortedForOutput(found.diagnostics), markers, swiftDataBundles)
        }
        let (bundle, markers) = try example.write(into: directory)
        let configuration = Configuration(baseDirectory: directory.path)
        let loaded = {
            var loaded = BundleLoader.load(bundleURL: bundle, displayPath: "Near.xcdatamodeld")
            loaded.unshippedReason = example.unshippedReason
            return loaded
        }
        let found: [Diagnostic]
        if example.lockFileText != nil {
            // Lock-file rules judge the lock file beside the bundle, as `check` reads it.
            var workspace = Workspace(configuration: configuration, workingDirectory: directory.path)
            workspace.history.lock = try LockFile.load(path: directory.appendingPathComponent("modellint.lock").path)
            workspace.history.lockPath = "modellint.lock"
            workspace.history.lockDirectory = directory.path
            found =
                Engine(configuration: configuration, rules: rules).run(
                    .app(try workspace.read(paths: ["Near.xcdatamodeld"]))
                ).diagnostics
        } else if let change = example.configurationChange {
            // A gate run's settings: the revision's `.modellint.json` beside the bundle against the one now.
            func file(_ text: String?) throws -> ConfigurationFloor.SettingsFile? {
                try text.map {
                    try ConfigurationFloor.SettingsFile(display: ".modellint.json", folder: "", bytes: Data($0.utf8))
                }
            }
            let before = ConfigurationFloor.Side(configuration: try file(change.before))
            let changes = ConfigurationFloor.changes(
                bundle: "Near.xcdatamodeld", before: before,
                after: ConfigurationFloor.Side(configuration: try file(change.after)), revision: "main",
                defaults: Dictionary(uniqueKeysWithValues: RuleRegistry.all.map { ($0.id, $0.description.severity) }))
            var input = LintInput(bundles: [LintInput.Bundle(bundle: loaded())])
            input.configurationChanges = changes
            found = Engine(configuration: configuration, rules: rules).run(.app(input)).diagnostics
        } else if let source = example.sourceFile {
            // Code rules judge the references scanned from the app's Swift files.
            found =
                Engine(configuration: configuration, rules: rules).run(
                    .app(
                        LintInput(
                            bundles: [LintInput.Bundle(bundle: loaded())],
                            sourceReferences: SourceReference.scan(source.text, path: source.name)))
                ).diagnostics
        } else if let project = example.project {
            // Project rules judge the project's version group, as `check` reads the project beside the bundle.
            let file = directory.appendingPathComponent("Near.xcodeproj/project.pbxproj")
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(project.text.utf8).write(to: file)
            let parsed = try XcodeProject.read(path: file.path, displayPath: "Near.xcodeproj/project.pbxproj")
            found =
                Engine(configuration: configuration, rules: rules).run(
                    .app(
                        LintInput(bundles: [
                            LintInput.Bundle(bundle: loaded(), projects: [(parsed, "Near.xcdatamodeld")])
                        ]))
                ).diagnostics
        } else if let store = example.storeMetadata() {
            // Store rules judge a store's metadata against the bundle, as `store` and golden stores do.
            // A golden store is judged as check judges the configuration's golden stores; another as `store` does.
            let engine = Engine(
                configuration: configuration, migration: example.storeMigratesStepByStep ? .progressive : nil,
                rules: rules)
            found =
                example.store?.golden == true
                ? engine.run(
                    .app(
                        LintInput(
                            bundles: [LintInput.Bundle(bundle: loaded())],
                            goldenStores: [LintInput.GoldenStore(path: "Store.sqlite", metadata: store)]))
                ).diagnostics
                : engine.run(
                    .store(
                        Engine.StoreSubject(
                            metadata: store, path: "Store.sqlite", bundle: loaded(), settings: nil, mappingModels: [],
                            otherBundles: []))
                ).diagnostics
        } else if let build = example.compiledModel() {
            // Rules about what ships judge the build against the bundle, as `verify-build` runs them.
            found =
                Engine(configuration: configuration, rules: rules).run(
                    .build(Engine.BuildSubject(build: build, bundle: loaded(), settings: nil))
                ).diagnostics
        } else {
            // Each mapping model matched by what it embeds, as check matches the ones it reads.
            let versions = loaded().readableVersions
            let sources = example.mappingModels.map { mapping in
                func model(_ body: String?, else name: String) -> Model? {
                    guard let body else { return versions.first { $0.name == name }?.model }
                    let text = RuleExample.modelHeader + "\n" + body + "\n</model>\n"
                    guard case .model(let m) = ContentsParser.parse(data: Data(text.utf8), path: "embedded")
                    else { return nil }
                    return m
                }
                return MappingModelSource(
                    name: mapping.name, path: "\(mapping.name).xcmappingmodel/xcmapping.xml",
                    file: MappingModelFile(
                        sourcePath: "Near.xcdatamodeld/\(mapping.source).xcdatamodel",
                        destinationPath: "Near.xcdatamodeld/\(mapping.destination).xcdatamodel",
                        source: model(mapping.embedded?.0, else: mapping.source),
                        destination: model(mapping.embedded?.1, else: mapping.destination), linked: mapping.linked))
            }
            let (mappings, unmatched) = MappingModelReader.match(sources, versions: versions)
            let ordered = loaded().orderedByEvidence(mappingPairs: mappings.map { ($0.source, $0.destination) }) { nil }
            found = Diagnostic.sortedForOutput(
                Engine(configuration: configuration, rules: rules).run(
                    .app(
                        LintInput(bundles: [
                            LintInput.Bundle(
                                bundle: ordered, settings: settings(declaring: example.renamed),
                                mappingModels: mappings, unmatchedMappingModels: unmatched,
                                histories: example.shippedHistory().map { [$0] } ?? [])
                        ]))
                ).diagnostics)
        }
        return (found, markers, [])
    }

    /// The configuration's settings an example declares (nil: none).
    static func settings(declaring renamed: [DeclaredRename]) -> BundleSettings? {
        guard !renamed.isEmpty else { return nil }
        var settings = BundleSettings()
        settings.renamed = renamed
        return settings
    }

    /// Why `example` does not hold for `rule` (empty: it holds).
    static func problems(of example: RuleExample, rule: RuleDescription, rules: [any Rule] = RuleRegistry.all) throws
        -> [String]
    {
        let (all, markers, swiftDataBundles) = try run(example, rules: rules)
        let found = all.filter { $0.ruleId == rule.id }
        guard example.triggers else {
            return found.isEmpty ? [] : ["must not trigger, found \(found.map(\.message))"]
        }
        var problems: [String] = []
        if markers.isEmpty {
            if found.count != 1 { problems.append("expected one finding, found \(found.map(\.message))") }
            if let expected = example.expectedFile {
                // `../X`: a file beside the bundle (a compiled model), as the markers' `../` paths.
                let file = expected.hasPrefix("../") ? String(expected.dropFirst(3)) : "Near.xcdatamodeld/" + expected
                if let first = found.first, first.file != file {
                    problems.append("expected the finding in \(file), found it in \(first.file)")
                }
            }
        } else {
            let expected = markers.map { marker in
                let file =
                    marker.file.hasPrefix("../") ? String(marker.file.dropFirst(3)) : "Near.xcdatamodeld/\(marker.file)"
                return "\(file):\(marker.line):\(marker.column)"
            }.sorted()
            let actual = found.map { "\($0.file):\($0.line ?? 0):\($0.column ?? 0)" }.sorted()
            if actual != expected {
                problems.append(
                    "expected findings at \(expected.joined(separator: ", ")), found \(actual) \(found.map(\.message))")
            }
        }
        for diagnostic in found {
            let severity = example.severity ?? rule.severity
            if diagnostic.severity != severity {
                problems.append("expected \(severity), found \(diagnostic.severity): \(diagnostic.message)")
            }
            if let message = example.message, diagnostic.message != message {
                problems.append("expected the message \"\(message)\", found \"\(diagnostic.message)\"")
            }
            // A pair-set finding carries the underlying problem's fix, and the progressive way out.
            if case .pairSet = subject(of: rule.id) {
                if !diagnostic.fix.hasSuffix("set \"migration\": \"progressive\"") {
                    problems.append("fix without the progressive way out: \(diagnostic.fix)")
                }
            } else if diagnostic.fix
                != (swiftDataBundles.contains(diagnostic.bundle) ? rule.swiftDataFix ?? rule.fix : rule.fix)
            {
                problems.append("fix \"\(diagnostic.fix)\" is not the rule's")
            }
            if diagnostic.message.isEmpty { problems.append("an empty message") }
        }
        return problems
    }

    /// The findings of an example as compared between variants: rule, severity, place, pair.
    static func summaries(of example: RuleExample, rule: RuleDescription) throws -> [String] {
        try findings(of: example, rules: RuleRegistry.all).filter {
            $0.ruleId == rule.id || Self.subject(of: $0.ruleId) == .pairSet
        }
        .map {
            "\($0.ruleId) \($0.severity) \($0.file):\($0.line ?? 0):\($0.column ?? 0) \($0.fromVersion ?? "-")>\($0.version ?? "-")"
        }
    }

    // MARK: Variants

    /// A plain example: model versions only, the last current, nothing beside the bundle.
    static func isPlain(_ example: RuleExample) -> Bool {
        guard example.shipped.isEmpty, example.lockFileText == nil, example.configurationChange == nil,
            example.mappingModels.isEmpty,
            example.sourceFile == nil, example.swiftFiles.isEmpty,
            example.project == nil, example.store == nil, example.build == nil, case .last = example.currentVersion
        else { return false }
        return example.versions.allSatisfy { if case .model = $0.contents { return true } else { return false } }
    }

    /// What a rule judges, as far as the variants care (from its kind, never its id).
    enum Subject: Equatable {
        case version, pair, pairSet, suppressionEntries, other
    }

    static func subject(of ruleID: String) -> Subject {
        guard let rule = RuleRegistry.all.first(where: { $0.id == ruleID }) else { return .other }
        switch rule.kind {
        case .version, .entity: return .version
        case .change, .entityPair: return .pair
        case .pairSet: return .pairSet
        case .suppression: return .suppressionEntries
        case .bundle, .migrationStyle, .mappingModel, .pickedMappingModel, .retirement, .history, .lockFile,
            .configurationChange, .build,
            .store, .project,
            .sourceReference,
            .swiftData, .classParity:
            return .other
        }
    }

    /// An example with a copy of its first version in front (`Near 0`). A two-version change example: the step's
    /// findings must be the same, and no skip-version finding may appear (the direct pair has the same problem).
    /// A single-version rule's example: the repeated version is judged from the caches (its entities repeat), and
    /// what is found must be the same, reported once at the newest version, as a note (Near 0 shipped with it). An example about unchanged versions
    /// (redundant-version's) is left out: the copy in front is one.
    static func olderInFront(_ c: RuleExampleCase) -> RuleExample? {
        guard isPlain(c.example), !c.example.aboutUnchangedVersions else { return nil }
        switch subject(of: c.ruleID) {
        case .pair: guard c.example.versions.count == 2 else { return nil }
        case .version: break
        case .pairSet, .suppressionEntries, .other: return nil
        }
        var variant = c.example
        variant.versions.insert(("Near 0", c.example.versions[0].contents), at: 0)
        return variant
    }

    /// A triggering example followed by a later current version, so its own versions have shipped: what a
    /// single-version rule finds in its last version, and what a change rule finds on its last step, is history
    /// (a note). The later version is a copy of the last for change rules (no step after it changes anything), and
    /// an unrelated entity for single-version rules (its own findings are not about the example's version).
    static func notCurrent(_ c: RuleExampleCase) -> (RuleExample, String)? {
        guard c.example.triggers, isPlain(c.example), let last = c.example.versions.last,
            !c.example.aboutUnchangedVersions
        else { return nil }
        var variant = c.example
        if subject(of: c.ruleID) == .pair {
            variant.versions.append(("Near 9", last.contents))
        } else if subject(of: c.ruleID) == .version {
            variant.versions.append(
                (
                    "Near 9",
                    .model("<entity name=\"LaterEntity\" representedClassName=\"LaterEntity\" syncable=\"YES\"/>")
                ))
        } else {
            return nil
        }
        return (variant, last.name)
    }

    /// A triggering example with `modellint:disable` naming the rule on every marked entity, attribute and
    /// relationship: nothing may be found. Examples with a marker on any other element are left out, and so are
    /// the rules about the suppression entries themselves.
    static func suppressed(_ c: RuleExampleCase) -> RuleExample? {
        guard c.example.triggers, isPlain(c.example), subject(of: c.ruleID) != .suppressionEntries else {
            return nil
        }
        let entry = "<userInfo><entry key=\"modellint:disable\" value=\"\(c.ruleID)\"/></userInfo>"
        var marked = 0
        var variant = c.example
        for (i, version) in c.example.versions.enumerated() {
            guard case .model(let body) = version.contents else { continue }
            var out = ""
            var rest = Substring(body)
            while let marker = rest.firstIndex(of: RuleExample.marker) {
                out += rest[..<marker]
                rest = rest[marker...]
                let tag = rest.dropFirst()
                guard
                    let name = ["entity", "attribute", "relationship"].first(where: {
                        tag.hasPrefix("<\($0) ") || tag.hasPrefix("<\($0)>")
                    }),
                    let close = tag.firstIndex(of: ">")
                else { return nil }
                let selfClosing = tag[tag.index(before: close)] == "/"
                out +=
                    "↓"
                    + (selfClosing
                        ? tag[..<tag.index(before: close)] + ">" + entry + "</\(name)>" : tag[...close] + entry)
                rest = tag[tag.index(after: close)...]
                marked += 1
            }
            out += rest
            variant.versions[i].contents = .model(out)
        }
        return marked == 0 ? nil : variant
    }
}
