import Foundation
import XCTest
import ModelLintModel
import ModelLintSwiftData
import ModelLintRules
import ModelLintCommands
import ModelLintReporting
import ModelLintGather

/// SwiftData apps as `check` and `hashes` read them: each crash pattern of Fixtures/SwiftData caught with its
/// rule, file and line, each fixed twin clean, and the schemas' hashes equal to hand translations into Xcode's XML.
final class SwiftDataTests: XCTestCase {
    let fixtures = repositoryRoot.appendingPathComponent("Fixtures/SwiftData")

    /// Errors and warnings of `check` on one fixture app: "file:line:column severity rule".
    func findings(_ app: String) -> [String] {
        let out = modellint(["check", app, "--format", "json"], in: fixtures)
        guard let data = out.standardOutput.data(using: .utf8),
            let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let diagnostics = json["diagnostics"] as? [[String: Any]]
        else { return ["unreadable output: \(out.standardOutput) \(out.standardError)"] }
        return diagnostics.compactMap { d in
            let severity = d["severity"] as? String ?? ""
            guard severity != "note" else { return nil }
            return "\(d["file"] ?? ""):\(d["line"] ?? 0):\(d["column"] ?? 0) \(severity) \(d["ruleId"] ?? "")"
        }
    }

    func testEachCrashPatternIsCaughtWhereItIsWritten() {
        XCTAssertEqual(
            findings("LiveTypeInHistoricalSchema"),
            [
                "LiveTypeInHistoricalSchema/Schemas.swift:6:10 warning swiftdata-live-type-in-historical-schema",
                "LiveTypeInHistoricalSchema/Schemas.swift:10:1 error swiftdata-duplicate-checksum",
            ])
        XCTAssertEqual(
            findings("DuplicateChecksum"), ["DuplicateChecksum/Schemas.swift:14:1 error swiftdata-duplicate-checksum"])
        XCTAssertEqual(
            findings("PlanMissingSchema"),
            [
                "PlanMissingSchema/Schemas.swift:37:14 error swiftdata-plan-missing-schema",
                "PlanMissingSchema/Schemas.swift:38:14 error swiftdata-plan-missing-schema",
                "PlanMissingSchema/Schemas.swift:33:1 error swiftdata-stage-gap",
            ])
        XCTAssertEqual(findings("StageGap"), ["StageGap/Schemas.swift:38:14 error swiftdata-stage-gap"])
        XCTAssertEqual(
            findings("ContainerNotLatest"),
            ["ContainerNotLatest/RecipesApp.swift:8:14 error swiftdata-container-schema-not-latest"])
        XCTAssertEqual(
            findings("RequiredWithoutDefault"),
            ["RequiredWithoutDefault/Schemas.swift:18:13 error required-attribute-without-default"])
        XCTAssertEqual(
            findings("ModelClassMismatch"),
            [
                "ModelClassMismatch/Models.swift:6:7 error model-class-mismatch",
                "ModelClassMismatch/Models.swift:8:9 error model-class-mismatch",
                "ModelClassMismatch/Models.swift:22:9 error model-class-mismatch",
                // Paired through ModelConfiguration(url: …Library.sqlite): a class with no entity in the bundle.
                "ModelClassMismatch/Models.swift:33:7 error model-class-mismatch",
            ])
        XCTAssertEqual(
            findings("StageWrongSchemaType"),
            ["StageWrongSchemaType/TripsMigrationPlan.swift:23:59 warning swiftdata-stage-wrong-schema-type"])
    }

    /// A schema has no `elementID`, Renaming ID field or model editor: what a finding tells its author to write is
    /// Swift, in the message and in the fix.
    func testAdviceOnASchemaIsSaidInSwift() throws {
        XCTAssertEqual(
            findings("RenamedWithoutOriginalName"),
            ["RenamedWithoutOriginalName/Schemas.swift:19:13 warning property-renamed-without-renaming-id"])
        let text = modellint(["check", "RenamedWithoutOriginalName"], in: fixtures).standardOutput
        XCTAssertEqual(
            Array(text.split(separator: "\n").prefix(2)),
            [
                "RenamedWithoutOriginalName/Schemas.swift:19:13: warning: Note.bodyText was removed and Note.text added between NotesV1 and NotesV2, both String attributes: without `originalName` this is a removal, and if it is a rename, bodyText's data is dropped. Give text `@Attribute(originalName: \"bodyText\")`; if it is not a rename, declare Note.bodyText retired in .modellint.json [property-renamed-without-renaming-id]",
                "    fix: give the new property `@Attribute(originalName: \"old\")` (`@Relationship(originalName:)` for a relationship), or confirm it is a delete plus an add by declaring the old one `retired` in .modellint.json",
            ], text)
        let out = modellint(["check", "RenamedWithoutOriginalName", "--format", "json"], in: fixtures)
        let json = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(out.standardOutput.utf8)) as? [String: Any])
        let diagnostics = try XCTUnwrap(json["diagnostics"] as? [[String: Any]])
        XCTAssertEqual(diagnostics.count, 1)
        XCTAssertEqual(
            diagnostics.first?["fix"] as? String, PropertyRenamedWithoutRenamingIDRule.description.swiftDataFix)
        // A required property's fix names it, with its type and a default of that type, as its declaration reads.
        let required = modellint(["check", "RequiredWithoutDefault"], in: fixtures).standardOutput
        XCTAssertEqual(
            required.split(separator: "\n").dropFirst().first,
            "    fix: give it a default in its declaration (`var streak: Int = 0`), or keep it optional (`var streak: Int?`); a `.custom` stage cannot fill a property its older schema lacks (its handlers run before and after an inferred migration): add it optional, then make it required in a later schema whose `.custom` stage fills the empty values in `willMigrate`",
            required)
        XCTAssertEqual(
            [
                (AttributeType.string, "`var a: String = \"\"`"), (.boolean, "`var a: Bool = false`"),
                (.date, "`var a: Date = .now`"), (.integer16, "`var a: Int16 = 0`"), (.uri, "`var a: URL?`"),
            ].map { type, shown in
                var fields = Attribute.Fields(name: "a", type: type)
                fields.isOptional = false
                let fix = RequiredAttributeWithoutDefaultRule.swiftDataFix(
                    Attribute(location: SourceLocation(file: "x"), fields: fields))
                return fix?.contains(shown) == true && (type != .uri || !(fix ?? "").contains("default in its"))
            }, [true, true, true, true, true])
        // A rename through `originalName` is tested on a store, not looked for in a compiled model.
        let trips = modellint(["check", "Trips", "--notes"], in: fixtures).standardOutput
        XCTAssertTrue(
            trips.contains(
                "Trips/TripsSchemaV2.swift:15:53: note: Trip.destination was renamed to place between TripsSchemaV1 and TripsSchemaV2 through `originalName: \"destination\"`: if the migration does not match it, the data is dropped and place reads nil (test the stage on a store TripsSchemaV1 wrote) [renaming-id-reliance]\n    fix: test the rename on a store the older schema wrote"
            ), trips)
    }

    /// What only Xcode's model has, named in advice a SwiftData author reads, is advice they cannot follow.
    func testNoSchemaFindingNamesWhatOnlyXcodesModelHas() throws {
        // Every app of Swift files but those whose classes are paired with a `.xcdatamodeld` (its findings are
        // Xcode's).
        let apps = try FileManager.default.contentsOfDirectory(atPath: fixtures.path).filter { app in
            let files = FileManager.default.enumerator(atPath: fixtures.appendingPathComponent(app).path)
            return !["ModelClassMismatch", "ModelClassMismatchFixed"].contains(app)
                && (files?.allObjects as? [String] ?? []).contains { $0.hasSuffix(".swift") }
        }.sorted()
        // Derived, not pinned: every fixture app of Swift files, which includes these.
        XCTAssertTrue(Set(["Trips", "Library", "RenamedWithoutOriginalName"]).isSubset(of: apps), "\(apps)")
        var judged = 0
        for app in apps {
            let out = modellint(["check", app, "--notes", "--format", "json"], in: fixtures)
            let json = try XCTUnwrap(
                JSONSerialization.jsonObject(with: Data(out.standardOutput.utf8)) as? [String: Any], app)
            for d in try XCTUnwrap(json["diagnostics"] as? [[String: Any]]) {
                judged += 1
                for key in ["message", "fix"] {
                    let said = d[key] as? String ?? ""
                    for word in SwiftDataAdvice.coreDataOnlyWords {
                        XCTAssertFalse(said.contains(word), "\(app) \(d["ruleId"] ?? "") \(key) names \(word): \(said)")
                    }
                }
            }
        }
        XCTAssertEqual(judged, 21)
    }

    func testMessagesNameTheSchemaTypeAndProperty() {
        let out = modellint(["check", "LiveTypeInHistoricalSchema", "RequiredWithoutDefault"], in: fixtures)
        let lines = out.standardOutput.split(separator: "\n").map(String.init)
        XCTAssertTrue(
            lines.contains(
                "LiveTypeInHistoricalSchema/Schemas.swift:6:10: warning: TodoV1 lists Item, a live @Model type declared outside it (Item.swift:6): when Item changes, TodoV1's checksum changes with it and stores written by the release that shipped TodoV1 match no schema (134504) [swiftdata-live-type-in-historical-schema]"
            ), out.standardOutput)
        XCTAssertTrue(
            lines.contains(
                "RequiredWithoutDefault/Schemas.swift:18:13: error: Habit.streak is required, has no default, and was added to existing entity Habit between HabitsV1 and HabitsV2: the store fails to open on any device with Habit rows (an empty test store passes) [required-attribute-without-default]"
            ), out.standardOutput)
    }

    /// Every fixed twin, and every correct app, has no error and no warning.
    func testFixedTwinsAndCorrectAppsAreClean() throws {
        let apps = try FileManager.default.contentsOfDirectory(atPath: fixtures.path).filter {
            $0.hasSuffix("Fixed") || ["Library", "Trips"].contains($0)
        }.sorted()
        XCTAssertEqual(apps.count, 10)
        for app in apps {
            XCTAssertEqual(findings(app), [], app)
        }
    }

    /// A plan's stage declared in an extension in a file of its own is read from that file: the file is part of
    /// the app's declarations though it mentions only `MigrationStage`, and the extension's member is read with
    /// its own file's tokens (with the plan's file's, the reader crashed on an index out of range).
    func testAStageDeclaredInAnExtensionOfThePlanInAnotherFileCoversItsStep() throws {
        XCTAssertEqual(findings("StagesInAnExtension"), [])
        let out = modellint(["check", "StagesInAnExtension", "--notes"], in: fixtures)
        XCTAssertEqual(out.exitCode, 0)
        XCTAssertEqual(
            out.standardOutput.split(separator: "\n").first.map(String.init),
            "StagesInAnExtension/Schemas.swift:16:33: note: Book gained the uniqueness constraint (title) between ShelfV1 and ShelfV2: the store fails to open on any device holding duplicates (covered by the custom stage ShelfV1 -> ShelfV2 (Stages.swift:6)) [uniqueness-constraint-added]"
        )
        // The shape that crashed: the stage's file also mentions FetchDescriptor, so it was read, and its
        // extension's member was read with the plan's file's tokens.
        let directory = try makeTemporaryDirectory(self)
        let app = directory.appendingPathComponent("App")
        try FileManager.default.copyItem(at: fixtures.appendingPathComponent("StagesInAnExtension"), to: app)
        let stages = app.appendingPathComponent("Stages.swift")
        let text = try String(contentsOf: stages, encoding: .utf8).replacingOccurrences(
            of: "try context.save()", with: "_ = try context.fetch(FetchDescriptor<ShelfV1.Book>())")
        try Data(text.utf8).write(to: stages)
        let fetched = modellint(["check", "App", "--notes"], in: directory)
        XCTAssertEqual(fetched.exitCode, 0, fetched.standardError)
        XCTAssertTrue(
            fetched.standardOutput.contains("(covered by the custom stage ShelfV1 -> ShelfV2 (Stages.swift:6))"),
            fetched.standardOutput)
    }

    /// `diff` reads a folder's SwiftData schemas as `hashes` does: by default the plan's last two schemas.
    func testDiffComparesTwoSchemasOfAFolder() throws {
        let out = modellint(["diff", "Trips"], in: fixtures)
        XCTAssertEqual(out.exitCode, 0, out.standardError)
        XCTAssertEqual(
            out.standardOutput,
            """
            TripsSchemaV2 -> TripsSchemaV3 (Trips/TripsMigrationPlan.swift)

            Trip
              + isFavorite  [lightweight]  Boolean attribute

            Stop  [lightweight, data-dependent]  uniqueness constraints changed

            2 changes: 1 lightweight, data-dependent, 1 lightweight

            """)
        XCTAssertEqual(out.standardError, "")
        let named = modellint(["diff", "Trips", "TripsSchemaV9"], in: fixtures)
        XCTAssertEqual(named.exitCode, 2)
        XCTAssertEqual(
            named.standardError,
            "modellint: TripsMigrationPlan has no version named 'TripsSchemaV9' (did you mean TripsSchemaV1? versions: TripsSchemaV1, TripsSchemaV2, TripsSchemaV3)\n"
        )
        // An entity a schema leaves unknown has no hash to classify its changes by: left out, and said so.
        let directory = try makeTemporaryDirectory(self)
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("App"), withIntermediateDirectories: true)
        try Data(
            """
            import SwiftData
            enum Kind: Codable { case plain, fancy }
            enum V1: VersionedSchema {
                static var versionIdentifier = Schema.Version(1, 0, 0)
                static var models: [any PersistentModel.Type] { [Item.self] }
                @Model final class Item { var kind: Kind = Kind.plain; init() {} }
            }
            enum V2: VersionedSchema {
                static var versionIdentifier = Schema.Version(2, 0, 0)
                static var models: [any PersistentModel.Type] { [Item.self, Tag.self] }
                @Model final class Item { var kind: Kind = Kind.plain; var note: String?; init() {} }
                @Model final class Tag { var label: String = ""; init() {} }
            }
            enum Plan: SchemaMigrationPlan {
                static var schemas: [any VersionedSchema.Type] { [V1.self, V2.self] }
                static var stages: [MigrationStage] { [.lightweight(fromVersion: V1.self, toVersion: V2.self)] }
            }
            """.utf8
        ).write(to: directory.appendingPathComponent("App/Schemas.swift"))
        let partly = modellint(["diff", "App", "--format", "json"], in: directory)
        XCTAssertEqual(partly.exitCode, 0, partly.standardError)
        let json = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(partly.standardOutput.utf8)) as? [String: Any])
        let changes = try XCTUnwrap(json["changes"] as? [[String: Any]])
        XCTAssertEqual(changes.map { "\($0["entity"] ?? "") \($0["change"] ?? "")" }, ["Tag added"])
        XCTAssertEqual(changes.first?["details"] as? [String], ["1 property"])
        XCTAssertTrue(
            partly.standardError.hasPrefix("modellint: V1.Item could not be read whole ("), partly.standardError)
        XCTAssertTrue(
            partly.standardError.contains("modellint: V2.Item could not be read whole ("), partly.standardError)
        XCTAssertTrue(partly.standardError.hasSuffix("): its changes are not classified\n"), partly.standardError)
    }

    /// Schemas declared in one file each, their version, `models` and `@Model` class in an extension in another
    /// (a common layout): every member is read from its own file (with the schema's file's tokens, the reader
    /// crashed), and the change between them is found where it is written.
    func testASchemaWhoseMembersAreInAnExtensionFileIsReadWhole() throws {
        XCTAssertEqual(
            findings("SchemaInExtensionFiles"),
            ["SchemaInExtensionFiles/SchemaV2+Models.swift:10:13 error required-attribute-without-default"])
        let hashes = modellint(["hashes", "SchemaInExtensionFiles"], in: fixtures)
        XCTAssertEqual(hashes.exitCode, 0, hashes.standardError)
        XCTAssertFalse(hashes.standardOutput.contains("unknown"), hashes.standardOutput)
        XCTAssertTrue(hashes.standardOutput.contains("SchemaV2 (current)"), hashes.standardOutput)
    }

    /// A custom stage covers its step as a mapping model does: what inference would do there is a note naming it.
    func testACustomStageCoversItsStep() {
        let out = modellint(["check", "Trips", "--notes"], in: fixtures)
        XCTAssertTrue(
            out.standardOutput.contains(
                "Trips/TripsSchemaV3.swift:33:9: note: Stop gained the uniqueness constraint (title, arrival) between TripsSchemaV2 and TripsSchemaV3: the store fails to open on any device holding duplicates (covered by the custom stage TripsSchemaV2 -> TripsSchemaV3 (TripsMigrationPlan.swift:18)) [uniqueness-constraint-added]"
            ), out.standardOutput)
        XCTAssertEqual(out.exitCode, 0)
    }

    func testJSONNamesTheSchemaSetAsSwiftData() throws {
        let out = modellint(["check", "Library", "--format", "json"], in: fixtures)
        let json = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(out.standardOutput.utf8)) as? [String: Any])
        let bundles = try XCTUnwrap(json["bundles"] as? [[String: Any]])
        XCTAssertEqual(bundles.count, 1)
        XCTAssertEqual(bundles[0]["kind"] as? String, "swiftdata")
        XCTAssertEqual(bundles[0]["path"] as? String, "Library/LibrarySchemas.swift")
        XCTAssertEqual(bundles[0]["versions"] as? [String], ["LibraryV1", "LibraryV2"])
        XCTAssertEqual(bundles[0]["currentVersion"] as? String, "LibraryV2")
    }

    /// Each hand translation (Translations/<app>.<schema>.xml, written by reading the Swift source) hashes as the
    /// Swift path computes: every entity hash, and so the checksum.
    func testSchemasHashAsTheirHandTranslations() throws {
        let translations = fixtures.appendingPathComponent("Translations")
        let files = try FileManager.default.contentsOfDirectory(atPath: translations.path).filter {
            $0.hasSuffix(".xml")
        }.sorted()
        XCTAssertGreaterThanOrEqual(files.count, 8)
        for file in files {
            let parts = file.dropLast(".xml".count).split(separator: ".").map(String.init)
            let (app, schemaName) = (parts[0], parts[1])
            let sets = HashesCommandTestAccess.sets(fixtures.appendingPathComponent(app).path)
            let schema = try XCTUnwrap(sets.flatMap(\.schemas).first { $0.name == schemaName }, file)
            XCTAssertTrue(schema.isFullyKnown, "\(file): \(schema.unknownEntities)")
            let data = try Data(contentsOf: translations.appendingPathComponent(file))
            guard case .model(let translated) = ContentsParser.parse(data: data, path: file) else {
                return XCTFail("\(file) does not parse")
            }
            XCTAssertEqual(schema.model.versionHashes.entities, translated.versionHashes.entities, file)
            XCTAssertEqual(schema.model.versionHashes.versionChecksum, translated.versionHashes.versionChecksum, file)
        }
    }

    /// `--against REF` reads the Swift files at REF from git: a live type that changed since the schema listing it
    /// shipped is an error naming the change; a frozen copy edited in place is swiftdata-frozen-schema-edited; the
    /// newest schema at REF may still change.
    func testHistoryFromGitMakesTheLiveTypeAndFrozenEditsErrors() throws {
        let directory = try makeTemporaryDirectory(self)
        let app = directory.appendingPathComponent("App")
        try FileManager.default.createDirectory(at: app, withIntermediateDirectories: true)
        func write(_ name: String, _ text: String) throws {
            try Data(text.utf8).write(to: app.appendingPathComponent(name))
        }
        let item = "import SwiftData\n@Model final class Item {\n    var title: String = \"\"\n    init() {}\n}\n"
        let schemas = """
            import SwiftData
            enum TodoV1: VersionedSchema {
                static var versionIdentifier = Schema.Version(1, 0, 0)
                static var models: [any PersistentModel.Type] { [Item.self, Note.self] }
                @Model final class Note { var text: String = ""; init() {} }
            }
            enum TodoV2: VersionedSchema {
                static var versionIdentifier = Schema.Version(2, 0, 0)
                static var models: [any PersistentModel.Type] { [Item.self, Note.self, Tag.self] }
                @Model final class Note { var text: String = ""; var color: String?; init() {} }
                @Model final class Tag { var label: String = ""; init() {} }
            }
            enum TodoPlan: SchemaMigrationPlan {
                static var schemas: [any VersionedSchema.Type] { [TodoV1.self, TodoV2.self] }
                static var stages: [MigrationStage] { [.lightweight(fromVersion: TodoV1.self, toVersion: TodoV2.self)] }
            }

            """
        try write("Item.swift", item)
        try write("Schemas.swift", schemas)
        _ = try git(["init", "-q"], in: directory)
        _ = try git(["add", "-A"], in: directory)
        _ = try git(["-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "1.0"], in: directory)
        // Unchanged since REF: nothing but the standing warning.
        XCTAssertEqual(
            findings(in: directory, ["check", "App", "--against", "HEAD"]),
            ["App/Schemas.swift:4:54 warning swiftdata-live-type-in-historical-schema"])
        try write(
            "Item.swift", item.replacingOccurrences(of: "    init()", with: "    var done: Bool = false\n    init()"))
        try write(
            "Schemas.swift",
            schemas.replacingOccurrences(
                of: "var text: String = \"\"; init()", with: "var text: String = \"\"; var pinned: Bool = false; init()"
            ).replacingOccurrences(of: "var label: String = \"\";", with: "var label: String = \"\"; var hue: Int = 0;")
        )
        let out = modellint(["check", "App", "--against", "HEAD"], in: directory)
        let lines = out.standardOutput.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("    fix") }
        XCTAssertEqual(
            lines,
            [
                "App/Schemas.swift:2:1: error: TodoV1 shipped (HEAD) and its shape changed since (Note: pinned added): stores written by the release that shipped it match no schema of the plan (134504) [swiftdata-frozen-schema-edited]",
                "App/Schemas.swift:4:54: error: TodoV1 lists Item, a live @Model type declared outside it (Item.swift:2), and Item has changed since TodoV1 shipped (HEAD): done added. Stores written by the release that shipped TodoV1 match no schema now (134504) [swiftdata-live-type-in-historical-schema]",
                // The edit's consequence on the step to the new schema, until it is reverted.
                "App/Schemas.swift:5:58: warning: Note.pinned (attribute) was removed between TodoV1 and TodoV2: its data is dropped on every device [property-removed]",
                "2 errors, 1 warning, 0 notes in 1 bundle (2 versions)",
            ], out.standardOutput + out.standardError)
    }

    /// An app without versioned schemas evolves its model in place: `--against` compares the model at REF with
    /// today's by every change rule (a new required property without a default is still 134110); unchanged, nothing.
    func testAnUnversionedAppIsComparedWithItsModelAtTheRevision() throws {
        let directory = try makeTemporaryDirectory(self)
        let app = directory.appendingPathComponent("App")
        try FileManager.default.createDirectory(at: app, withIntermediateDirectories: true)
        let file = app.appendingPathComponent("Item.swift")
        try Data("import SwiftData\n@Model final class Item {\n    var title: String = \"\"\n    init() {}\n}\n".utf8)
            .write(
                to: file)
        _ = try git(["init", "-q"], in: directory)
        _ = try git(["add", "-A"], in: directory)
        _ = try git(["commit", "-qm", "1.0"], in: directory)
        XCTAssertEqual(findings(in: directory, ["check", "App", "--against", "HEAD", "--notes"]), [])
        try Data(
            "import SwiftData\n@Model final class Item {\n    var title: String = \"\"\n    var rank: Int\n    init() { rank = 0 }\n}\n"
                .utf8
        ).write(to: file)
        let out = modellint(["check", "App", "--against", "HEAD"], in: directory)
        XCTAssertEqual(
            out.standardOutput.split(separator: "\n").first.map(String.init),
            "App/Item.swift:4:9: error: Item.rank is required, has no default, and was added to existing entity Item between HEAD and current: the store fails to open on any device with Item rows (an empty test store passes) [required-attribute-without-default]"
        )
        // Without history, the one version is all there is.
        XCTAssertEqual(findings(in: directory, ["check", "App"]), [])
    }

    /// `--pre-commit` reads the index: a staged Swift file that declares SwiftData brings the index's Swift files
    /// in (what is committed, not the work tree); a staged Swift file with no SwiftData says nothing.
    func testPreCommitReadsTheStagedSchemas() throws {
        let directory = try makeTemporaryDirectory(self)
        try FileManager.default.copyItem(
            at: fixtures.appendingPathComponent("RequiredWithoutDefaultFixed"),
            to: directory.appendingPathComponent("App"))
        _ = try git(["init", "-q"], in: directory)
        _ = try git(["add", "-A"], in: directory)
        _ = try git(["commit", "-qm", "1.0"], in: directory)
        try Data("struct Other: Codable {}\n".utf8).write(to: directory.appendingPathComponent("App/Other.swift"))
        _ = try git(["add", "App/Other.swift"], in: directory)
        let quiet = modellint(["check", "--pre-commit"], in: directory)
        XCTAssertEqual([quiet.standardOutput, quiet.standardError, "\(quiet.exitCode)"], ["", "", "0"])
        let schemas = directory.appendingPathComponent("App/Schemas.swift")
        let text = try String(contentsOf: schemas, encoding: .utf8)
        try Data(text.replacingOccurrences(of: "var streak: Int = 0", with: "var streak: Int").utf8).write(to: schemas)
        _ = try git(["add", "App/Schemas.swift"], in: directory)
        // The work tree's fix is not staged: the commit is what is judged.
        try Data(text.utf8).write(to: schemas)
        XCTAssertEqual(
            findings(in: directory, ["check", "--pre-commit"]),
            ["App/Schemas.swift:18:13 error required-attribute-without-default"])
    }

    /// `modellint lock` records each schema set (keyed by its plan's file and name) as it records a bundle; `check`
    /// then knows what shipped: a live type changed since is an error in the schemas that list it, the newest
    /// included. A schema whose shape is not wholly known is not recorded.
    func testTheLockFileRecordsSchemaSets() throws {
        let directory = try makeTemporaryDirectory(self)
        try FileManager.default.copyItem(
            at: fixtures.appendingPathComponent("LiveTypeInHistoricalSchema"),
            to: directory.appendingPathComponent("App"))
        let locked = modellint(["lock", "--verbose"], in: directory)
        XCTAssertEqual(
            locked.standardOutput,
            "  added: App/Schemas.swift TodoV1\n  added: App/Schemas.swift TodoV2\nmodellint.lock: 2 versions added, 0 already locked\n"
        )
        let lock = try String(contentsOf: directory.appendingPathComponent("modellint.lock"), encoding: .utf8)
        XCTAssertTrue(lock.contains("\"App/Schemas.swift#TodoMigrationPlan\": {"), lock)
        XCTAssertEqual(
            findings(in: directory, ["check", "App"]),
            [
                "App/Schemas.swift:6:10 warning swiftdata-live-type-in-historical-schema",
                "App/Schemas.swift:10:1 note redundant-version",
                "App/Schemas.swift:10:1 error swiftdata-duplicate-checksum",
            ])
        let item = directory.appendingPathComponent("App/Item.swift")
        let text = try String(contentsOf: item, encoding: .utf8)
        try Data(text.replacingOccurrences(of: "    var priority: Int = 0\n", with: "").utf8).write(to: item)
        XCTAssertEqual(
            findings(in: directory, ["check", "App"]),
            [
                "App/Schemas.swift:6:10 error swiftdata-live-type-in-historical-schema",
                "App/Schemas.swift:10:1 note redundant-version",
                "App/Schemas.swift:10:1 error swiftdata-duplicate-checksum",
                "App/Schemas.swift:10:1 error swiftdata-frozen-schema-edited",
            ])
    }

    func findings(in directory: URL, _ arguments: [String]) -> [String] {
        let out = modellint(arguments + ["--format", "json"], in: directory)
        guard let json = try? JSONSerialization.jsonObject(with: Data(out.standardOutput.utf8)) as? [String: Any],
            let diagnostics = json["diagnostics"] as? [[String: Any]]
        else { return ["unreadable output: \(out.standardOutput) \(out.standardError)"] }
        return diagnostics.map { d in
            "\(d["file"] ?? ""):\(d["line"] ?? 0):\(d["column"] ?? 0) \(d["severity"] ?? "") \(d["ruleId"] ?? "")"
        }
    }

    /// export-schema writes each schema as Xcode's XML: the bundle hashes as the Swift source does, checks clean
    /// but for what its schemas hold, and is never overwritten.
    func testExportSchemaWritesABundleThatHashesAsTheSource() throws {
        let directory = try makeTemporaryDirectory(self)
        let trips = fixtures.appendingPathComponent("Trips").path
        let out = modellint(["export-schema", trips, "--output", directory.path], in: directory)
        XCTAssertEqual(out.exitCode, 0, out.standardError)
        XCTAssertEqual(
            out.standardOutput,
            "wrote TripsMigrationPlan.xcdatamodeld (TripsSchemaV1, TripsSchemaV2, TripsSchemaV3)\n")
        let exported = modellint(["hashes", "TripsMigrationPlan.xcdatamodeld", "--format", "json"], in: directory)
        let source = modellint(["hashes", trips, "--format", "json"], in: directory)
        func versions(_ out: CommandOutput) -> String {
            let json = try? JSONSerialization.jsonObject(with: Data(out.standardOutput.utf8)) as? [String: Any]
            let versions = json?["versions"] as? [[String: Any]] ?? []
            return versions.map { version in
                let entities = (version["entities"] as? [String: String] ?? [:]).sorted { $0.key < $1.key }
                return "\(version["name"]!) \(version["versionChecksum"]!) \(entities.map { "\($0.key)=\($0.value)" })"
            }.joined(separator: "\n")
        }
        XCTAssertFalse(versions(exported).isEmpty)
        XCTAssertEqual(versions(exported), versions(source))
        let checked = modellint(["check", "TripsMigrationPlan.xcdatamodeld"], in: directory)
        XCTAssertEqual(checked.exitCode, 0, checked.standardOutput)
        XCTAssertEqual(
            checked.standardOutput.split(separator: "\n").last,
            "0 errors, 1 warning, 1 note (--notes to list them) in 1 bundle (3 versions)")
        let again = modellint(["export-schema", trips, "--output", directory.path], in: directory)
        XCTAssertEqual(again.exitCode, 2)
        XCTAssertEqual(
            again.standardError,
            "modellint: TripsMigrationPlan.xcdatamodeld exists; export-schema does not overwrite it\n")
    }

    /// `store` names the SwiftData schema whose entity hashes a store records (Stores/Library-LibraryV1.sqlite holds
    /// LibraryV1's, which equal its hand translation's, written with Python's sqlite3: Stores/README.md), with the
    /// set named or found among the folder's.
    func testStoreNamesTheSchemaThatWroteIt() {
        for arguments in [
            ["store", "Stores/Library-LibraryV1.sqlite", "Library"], ["store", "Stores/Library-LibraryV1.sqlite"],
        ] {
            let out = modellint(arguments, in: fixtures)
            XCTAssertEqual(out.exitCode, 0, out.standardError)
            let lines = out.standardOutput.split(separator: "\n").map(String.init)
            XCTAssertEqual(lines.dropFirst().first, "  written by: LibraryV1", out.standardOutput)
            XCTAssertTrue(
                lines.contains("  migrating to LibraryV2 (current): one hop, nothing found"), out.standardOutput)
        }
    }

    /// A type the scanner cannot map (a Codable struct) makes its entity unknown: `hashes` prints no hash for it,
    /// nor a checksum for its schema.
    func testAnEntityWhoseShapeIsUnknownHasNoHash() throws {
        let directory = try makeTemporaryDirectory(self)
        try Data(
            """
            import SwiftData
            struct Address: Codable { var street: String }
            @Model final class Customer {
                var name: String = ""
                var address: Address?
                init() {}
            }
            @Model final class Order {
                var total: Double = 0
                init() {}
            }
            """.utf8
        ).write(to: directory.appendingPathComponent("Models.swift"))
        let out = modellint(["hashes", "."], in: directory)
        let lines = out.standardOutput.split(separator: "\n").map {
            $0.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        }
        XCTAssertEqual(lines.first { $0.first == "versionChecksum" }?.last, "unknown", out.standardOutput)
        XCTAssertEqual(lines.first { $0.first == "Customer" }?.last, "unknown", out.standardOutput)
        XCTAssertEqual(lines.first { $0.first == "Order" }?.last?.count, 44, out.standardOutput)
        XCTAssertTrue(out.standardOutput.contains("current (current)"), out.standardOutput)
    }
}

/// The Swift sets `hashes` reads, for tests.
enum HashesCommandTestAccess {
    static func sets(_ path: String) -> [SwiftSchemaSet] {
        let files =
            FileManager.default.enumerator(atPath: path)?.compactMap { $0 as? String }.filter {
                $0.hasSuffix(".swift")
            }.map { path + "/" + $0 } ?? []
        return SwiftDataLoader.load(files, root: path) { $0 }.sets
    }
}

/// What a fix or message may not name when its reader writes Swift: Xcode's model fields and files.
enum SwiftDataAdvice {
    static let coreDataOnlyWords = [
        "elementID", "Renaming ID", "inverseName", "Xcode", "User Info", "userInfo", "versionHashModifier",
        "Version Hash Modifier", "mapping model", ".xccurrentversion", "modellint:disable", "modellint new-version",
        "compiled model", "NSManagedObjectModel",
    ]

    /// Rules that never judge a SwiftData schema: the XML format, `.xccurrentversion`, what Xcode compiled or
    /// a project references, a bundle's shipped history (a schema's is swiftdata-frozen-schema-edited), and a
    /// direct migration's skipped versions (SwiftData migrates stage by stage).
    static let coreDataOnlyRules: Set<String> = [
        "legacy-model-format", "missing-current-version", "current-version-not-found", "current-version-not-latest",
        "version-name-ambiguous", "current-version-rolled-back", "renaming-identifier-xml-attribute",
        "unknown-xml-attribute", "unknown-attribute-type", "derived-attribute-invalid", "skip-version-upgrade",
        "shipped-version-edited", "shipped-version-semantics-changed", "compiled-current-version-mismatch",
        "compiled-renaming-id-lost", "mapping-model-unmatched", "mapping-model-stale", "mapping-model-drops-entity",
        "project-current-version-mismatch",
    ]
}

final class SwiftDataAdviceTests: XCTestCase {
    /// Every rule that can judge a schema and whose fix names Xcode's model has a fix in Swift, and no fix in
    /// Swift names Xcode's model.
    func testEveryRuleThatJudgesSchemasHasAdviceInSwift() {
        var said = 0
        for rule in RuleRegistry.descriptions {
            let words = SwiftDataAdvice.coreDataOnlyWords
            if let swiftDataFix = rule.swiftDataFix {
                said += 1
                XCTAssertNotEqual(swiftDataFix, rule.fix, rule.id)
                for word in words { XCTAssertFalse(swiftDataFix.contains(word), "\(rule.id) names \(word)") }
                XCTAssertEqual(rule.fix(for: .swiftData(name: "Plan", versioned: true)), swiftDataFix, rule.id)
                XCTAssertEqual(rule.fix(for: .xcdatamodeld), rule.fix, rule.id)
            } else if !SwiftDataAdvice.coreDataOnlyRules.contains(rule.id) {
                for word in words where rule.fix.contains(word) {
                    XCTFail("\(rule.id) judges SwiftData schemas but its fix names \(word) and it has no swiftDataFix")
                }
            }
        }
        // Not a pinned count: every rule above was held to the condition; at least some say their fix in Swift.
        XCTAssertGreaterThan(said, 0)
    }

    /// The rule pages and `explain` show both fixes.
    func testDocumentationShowsTheFixInSwift() throws {
        let rule = MissingInverseRule.description
        let page = RuleDocumentation.markdown(rule)
        XCTAssertTrue(
            page.contains(
                "## Fix\n\nAdd the inverse relationship on the destination entity and set both `inverseName`s.\n\nIn a SwiftData schema: add the inverse property on the destination model (`var owner: A?`) and name it on one side: `@Relationship(inverse: \\B.owner)`.\n"
            ), page)
        let explained = modellint(["explain", "missing-inverse"], in: repositoryRoot).standardOutput
        XCTAssertTrue(
            explained.contains(
                "Fix in a SwiftData schema:\n  add the inverse property on the destination model (`var owner: A?`) and name it on one side: `@Relationship(inverse: \\B.owner)`\n"
            ), explained)
    }
}
