import Foundation
import ModelLintModel
import ModelLintHistory
import ModelLintCompiled
import ModelLintStores

/// A tiny bundle that must (or must not) trigger a rule. In model XML, `↓` marks the `<` of each
/// element a finding must point at; it is stripped before the file is written.
package struct RuleExample: Sendable {
    package enum Contents: Sendable {
        /// The body of a `<model>` element; the header is added around it.
        case model(String)
        /// The exact bytes of `contents`.
        case file(String)
        /// A version folder with no `contents`.
        case none
        /// A version folder in the pre-Xcode-4 binary format (`elements` and `layout`).
        case legacy
    }

    package enum CurrentVersion: Sendable {
        /// `.xccurrentversion` names the last version.
        case last
        /// `.xccurrentversion` names this version.
        case named(String)
        /// There is no `.xccurrentversion`.
        case absent
        /// `.xccurrentversion` holds these exact bytes.
        case file(String)
    }

    package var versions: [(name: String, contents: Contents)]
    /// For history rules: the versions as they shipped (recorded in a lock file, or read from git), and where
    /// that record came from.
    package var shipped: [(name: String, contents: Contents)] = []
    package var shippedSource: ShippedHistory.Source = .lockFile("modellint.lock")
    package var currentVersion: CurrentVersion
    package var triggers: Bool
    /// For findings with no marker: the file they must name, relative to the bundle.
    package var expectedFile: String?
    /// The severity the finding must have, when it is not the rule's default (a rule whose severity depends on the case).
    package var severity: Severity?
    /// For lock-file rules: the exact text of `modellint.lock` beside the bundle (markers `↓` at an entry's line).
    package var lockFileText: String?
    /// For rules about a gate's change to the settings: `.modellint.json` beside the bundle at the revision (nil:
    /// none) and now.
    package var configurationChange: (before: String?, after: String)?
    /// When set, the exact message every finding must have.
    package var message: String?
    /// Whether versions that do not differ are what the rule is about: then the harness's variants that add an
    /// unchanged copy of a version (which the rule would rightly report) do not apply.
    package var aboutUnchangedVersions = false
    /// Where the example is written (the rule's file): the harness reports a failing example there.
    package var filePath: String
    package var line: Int

    package init(
        versions: [(name: String, contents: Contents)], currentVersion: CurrentVersion = .last, triggers: Bool,
        expectedFile: String? = nil,
        filePath: String = #filePath, line: Int = #line
    ) {
        self.filePath = filePath
        self.line = line
        self.versions = versions
        self.currentVersion = currentVersion
        self.triggers = triggers
        self.expectedFile = expectedFile
    }

    /// One version, `Near 1`, which is current.
    package static func triggering(_ body: String, filePath: String = #filePath, line: Int = #line) -> RuleExample {
        RuleExample(versions: [("Near 1", .model(body))], triggers: true, filePath: filePath, line: line)
    }

    package static func passing(_ body: String, filePath: String = #filePath, line: Int = #line) -> RuleExample {
        RuleExample(versions: [("Near 1", .model(body))], triggers: false, filePath: filePath, line: line)
    }

    /// Two versions, `Near 1` (before) then `Near 2` (after, current).
    package static func triggering(before: String, after: String, filePath: String = #filePath, line: Int = #line)
        -> RuleExample
    {
        RuleExample(
            versions: [("Near 1", .model(before)), ("Near 2", .model(after))], triggers: true, filePath: filePath,
            line: line)
    }

    package static func passing(before: String, after: String, filePath: String = #filePath, line: Int = #line)
        -> RuleExample
    {
        RuleExample(
            versions: [("Near 1", .model(before)), ("Near 2", .model(after))], triggers: false, filePath: filePath,
            line: line)
    }

    /// A history example: `shipped` as recorded, `now` in the work tree.
    package static func history(
        shipped: [(String, String)], now: [(String, String)],
        source: ShippedHistory.Source = .lockFile("modellint.lock"),
        triggers: Bool, expectedFile: String? = nil, filePath: String = #filePath, line: Int = #line
    ) -> RuleExample {
        var example = RuleExample(
            versions: now.map { ($0.0, Contents.model($0.1)) }, triggers: triggers, expectedFile: expectedFile,
            filePath: filePath, line: line)
        example.shipped = shipped.map { ($0.0, Contents.model($0.1)) }
        example.shippedSource = source
        return example
    }

    /// Mapping models beside the bundle: (file name, source version, destination version, and the model bodies
    /// it embeds when the example says: otherwise it embeds exactly the two versions its paths name).
    package var mappingModels:
        [(
            name: String, source: String, destination: String, embedded: (String, String)?,
            linked: [LinkedEntityMapping]?
        )] = []

    /// The same example with a mapping model from one version to another; `embedding`: the bodies of the source
    /// and destination models it embeds, when they are not those versions; `linking`: the entity mappings it lists
    /// (source, destination), when it lists them (otherwise it is compared whole).
    package func mapping(
        _ name: String, from source: String, to destination: String, embedding: (String, String)? = nil,
        linking: [(String?, String?)]? = nil
    ) -> RuleExample {
        var copy = self
        copy.mappingModels.append(
            (
                name, source, destination, embedding,
                linking.map { $0.map { LinkedEntityMapping(source: $0.0, destination: $0.1) } }
            ))
        return copy
    }

    /// Why the bundle does not ship, as a search would have found (`bundle-not-shipped`).
    package var unshippedReason: String?

    /// Renames the configuration declares for the example's bundle (`renamed`).
    package var renamed: [DeclaredRename] = []

    package func declaring(_ rename: DeclaredRename) -> RuleExample {
        var copy = self
        copy.renamed.append(rename)
        return copy
    }

    /// The same example, its bundle found by a search that tells nothing builds it.
    package func unshipped(_ reason: String) -> RuleExample {
        var copy = self
        copy.unshippedReason = reason
        return copy
    }

    /// The same example with `.xccurrentversion` naming this version.
    package func pointing(at version: String) -> RuleExample {
        var copy = self
        copy.currentVersion = .named(version)
        return copy
    }

    /// The same example, whose findings must have exactly this message.
    package func expectingMessage(_ message: String) -> RuleExample {
        var copy = self
        copy.message = message
        return copy
    }

    /// The same example, about versions that do not differ (`aboutUnchangedVersions`).
    package func aboutUnchanged() -> RuleExample {
        var copy = self
        copy.aboutUnchangedVersions = true
        return copy
    }

    /// The same example, whose findings must have this severity.
    package func expecting(_ severity: Severity) -> RuleExample {
        var copy = self
        copy.severity = severity
        return copy
    }

    /// A lock file beside a one-version bundle `Near.xcdatamodeld`.
    /// For rules about what ships: the build's output, described as model XML per compiled version (as if
    /// Xcode had compiled that body), its current version, and compiled mapping models given as the source and
    /// destination bodies whose entity hashes they carry.
    package struct Build: Sendable {
        package var versions: [(name: String, body: String)]
        package var current: String?
        package var mappings: [(name: String, source: String, destination: String)] = []

        package init(
            versions: [(name: String, body: String)], current: String?,
            mappings: [(name: String, source: String, destination: String)] = []
        ) {
            self.versions = versions
            self.current = current
            self.mappings = mappings
        }
    }

    package var build: Build?

    /// For SwiftData rules: the app's Swift files (name and text, markers `↓` where a finding must point), read as
    /// `check` reads a folder of Swift sources. A name with folders writes them (a bundle's `contents` beside the
    /// Swift files).
    package var swiftFiles: [(name: String, text: String)] = []

    /// For SwiftData history rules: the app's Swift files as they were at the release (`shippedSource`), whose
    /// schema sets are the shipped record of the sets of `swiftFiles`.
    package var shippedSwiftFiles: [(name: String, text: String)] = []

    /// The same SwiftData example, with these files as they were at `source` (`--released` by default).
    package func shipped(
        swift files: [(String, String)], source: ShippedHistory.Source = .released("v1.0")
    ) -> RuleExample {
        var copy = self
        copy.shippedSwiftFiles = files.map { ($0.0, $0.1) }
        copy.shippedSource = source
        return copy
    }

    /// A SwiftData app of these Swift files.
    package static func swift(
        _ files: [(String, String)], triggers: Bool, filePath: String = #filePath, line: Int = #line
    ) -> RuleExample {
        var example = RuleExample(versions: [], triggers: triggers, filePath: filePath, line: line)
        example.swiftFiles = files.map { ($0.0, $0.1) }
        return example
    }

    /// For rules about the app's code: a Swift file beside the bundle (its name and text).
    package var sourceFile: (name: String, text: String)?

    package static func source(
        _ versions: [(String, String)], file name: String, _ text: String, triggers: Bool, filePath: String = #filePath,
        line: Int = #line
    ) -> RuleExample {
        var example = RuleExample(
            versions: versions.map { ($0.0, .model($0.1)) }, triggers: triggers, expectedFile: "../" + name,
            filePath: filePath, line: line)
        example.sourceFile = (name, text)
        return example
    }

    /// For project rules: `Near.xcodeproj/project.pbxproj` beside the bundle, with a version group listing these
    /// version folders, this current version, compiled by a target or not.
    package struct Project: Sendable {
        package var children: [String]
        package var current: String?
        package var compiled: Bool

        package init(children: [String], current: String?, compiled: Bool = true) {
            self.children = children
            self.current = current
            self.compiled = compiled
        }

        /// The `project.pbxproj` text, shaped as Xcode writes it (one object per line group, ids of 24 hex digits).
        package var text: String {
            func id(_ n: Int) -> String { String(format: "%024X", 0xA0000 + n) }
            var refs = ""
            for (i, child) in children.enumerated() {
                refs +=
                    "\t\t\(id(10 + i)) /* \(child) */ = {isa = PBXFileReference; lastKnownFileType = wrapper.xcdatamodel; path = \"\(child)\"; sourceTree = \"<group>\"; };\n"
            }
            let childList = children.indices.map { "\t\t\t\t\(id(10 + $0)) /* \(children[$0]) */,\n" }.joined()
            let currentRef =
                current.flatMap { c in
                    children.firstIndex(of: c).map { "\t\t\tcurrentVersion = \(id(10 + $0)) /* \(c) */;\n" }
                } ?? ""
            let phaseFiles = compiled ? "\t\t\t\t\(id(2)) /* Near.xcdatamodeld in Sources */,\n" : ""
            return """
                // !$*UTF8*$!
                {
                \tarchiveVersion = 1;
                \tobjectVersion = 56;
                \tobjects = {
                \t\t\(id(2)) /* Near.xcdatamodeld in Sources */ = {isa = PBXBuildFile; fileRef = \(id(1)) /* Near.xcdatamodeld */; };
                \(refs)\t\t\(id(3)) = {isa = PBXGroup; children = (\(id(1)) /* Near.xcdatamodeld */,); sourceTree = \"<group>\"; };
                \t\t\(id(4)) /* Sources */ = {isa = PBXSourcesBuildPhase; files = (
                \(phaseFiles)\t\t\t); };
                \t\t\(id(1)) /* Near.xcdatamodeld */ = {
                \t\t\tisa = XCVersionGroup;
                \t\t\tchildren = (
                \(childList)\t\t\t);
                \(currentRef)\t\t\tpath = Near.xcdatamodeld;
                \t\t\tsourceTree = \"<group>\";
                \t\t\tversionGroupType = wrapper.xcdatamodel;
                \t\t};
                \t};
                \trootObject = \(id(3));
                }

                """
        }
    }

    package var project: Project?

    /// The bundle (`Near 1`...; the last is current) and a project beside it.
    package static func project(
        _ versions: [String], _ project: Project, triggers: Bool, expectedFile: String? = nil,
        filePath: String = #filePath, line: Int = #line
    ) -> RuleExample {
        var example = RuleExample(
            versions: versions.map { ($0, .model("<entity name=\"Item\"/>")) }, triggers: triggers,
            expectedFile: expectedFile, filePath: filePath, line: line)
        example.project = project
        return example
    }

    /// For store rules: the model whose entity hashes the store records (`Store.sqlite` beside the bundle), and
    /// whether it is a golden fixture.
    package var store: (body: String, golden: Bool)?
    /// Whether the example's store caches the model that wrote it (`Z_MODELCACHE`), as every SQLite store Core
    /// Data has written since iOS 11 does.
    package var storeCachesItsModel = false

    /// The source bundle (`Near 1`...; the last is current) and a store written by `storeBody`.
    package static func store(
        _ versions: [(String, String)], writtenBy storeBody: String, golden: Bool = false, triggers: Bool,
        expectedFile: String = "../Store.sqlite", filePath: String = #filePath, line: Int = #line
    ) -> RuleExample {
        var example = RuleExample(
            versions: versions.map { ($0.0, .model($0.1)) }, triggers: triggers, expectedFile: expectedFile,
            filePath: filePath, line: line)
        example.store = (storeBody, golden)
        return example
    }

    /// The same store example, the store caching the model that wrote it.
    package func cachingItsModel() -> RuleExample {
        var copy = self
        copy.storeCachesItsModel = true
        return copy
    }

    /// For store rules: the app migrates this bundle step by step (`--migration progressive`, or its code shows it).
    package var storeMigratesStepByStep = false

    /// The same store example, in an app that migrates step by step.
    package func migratingStepByStep() -> RuleExample {
        var copy = self
        copy.storeMigratesStepByStep = true
        return copy
    }

    /// The source bundle (`Near 1`...; the last is current) and what a build made of it.
    package static func compiled(
        _ versions: [(String, String)], build: Build, triggers: Bool, expectedFile: String? = nil,
        filePath: String = #filePath, line: Int = #line
    ) -> RuleExample {
        var example = RuleExample(
            versions: versions.map { ($0.0, .model($0.1)) }, triggers: triggers, expectedFile: expectedFile,
            filePath: filePath, line: line)
        example.build = build
        return example
    }

    package static func lockFile(_ text: String, triggers: Bool, filePath: String = #filePath, line: Int = #line)
        -> RuleExample
    {
        var example = RuleExample(
            versions: [("Near 1", .model("<entity name=\"Thing\"/>"))], triggers: triggers, filePath: filePath,
            line: line)
        example.lockFileText = text
        return example
    }

    /// A gate run (against `main`) in which `.modellint.json` beside the bundle reads `before` at the revision (nil:
    /// there was none) and `after` now.
    package static func configurationChange(
        before: String?, after: String, triggers: Bool, filePath: String = #filePath, line: Int = #line
    ) -> RuleExample {
        var example = RuleExample(
            versions: [("Near 1", .model("<entity name=\"Thing\"/>"))], triggers: triggers,
            expectedFile: "../.modellint.json", filePath: filePath, line: line)
        example.configurationChange = (before, after)
        return example
    }

    package static let modelHeader = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="23231" systemVersion="23A344" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
        """

    package static let marker: Character = "↓"

    /// The text of a version's `contents` with markers, or nil when it has none.
    package static func markedText(of contents: Contents) -> String? {
        switch contents {
        case .model(let body): return modelHeader + "\n" + body + "\n</model>\n"
        case .file(let text): return text
        case .none, .legacy: return nil
        }
    }
}
