import Foundation
import XCTest
import ModelLintSupport
import ModelLintProjects
import ModelLintCommands
import ModelLintGather

/// What the app's repository says about how a bundle ships and migrates: its step-by-step migrator
/// (`progressive-migration-likely`), bundles nothing builds (`bundle-not-shipped`) and its own value transformers. Each fixture is copied out of
/// this repository first: here, modellint's own Package.swift would build every bundle, and its own Swift files are
/// not the app's.
final class ShippingFactsTests: XCTestCase {
    private func copy(_ fixture: String) throws -> URL {
        let directory = try makeTemporaryDirectory(self).appendingPathComponent("app")
        try FileManager.default.copyItem(
            at: repositoryRoot.appendingPathComponent("Fixtures/\(fixture)"), to: directory)
        return directory
    }

    /// One app, one verdict: for every fixture app whose code decides a verdict (a Swift or Objective-C step
    /// migrator, code that destroys a store), `check BUNDLE` gives that bundle the findings a `check` of the whole
    /// app gives it, in every field the JSON report has. (The class checks are not yet among them: a run that names
    /// a bundle does not parse the app's classes, since without the build's targets the repository's other apps'
    /// classes would be paired with it too.)
    func testNamingABundleGivesTheVerdictsOfTheWholeApp() throws {
        var compared = 0
        for fixture in ["StepMigrator", "StepMigratorObjC", "FailureCost"] {
            let app = try copy(fixture)
            let files = try FileManager.default.subpathsOfDirectory(atPath: app.path)
            for file in files where file.hasSuffix(".fixture") {
                try FileManager.default.moveItem(
                    at: app.appendingPathComponent(file),
                    to: app.appendingPathComponent(String(file.dropLast(".fixture".count))))
            }
            let bundles = files.filter { $0.hasSuffix(".xcdatamodeld") }
            XCTAssertFalse(bundles.isEmpty, fixture)
            let whole = jsonDiagnostics(modellint(["check", "--format", "json", "--notes"], in: app))
            for bundle in bundles {
                let named = jsonDiagnostics(modellint(["check", bundle, "--format", "json", "--notes"], in: app))
                func shown(_ diagnostics: [[String: Any]]) -> [String] {
                    diagnostics.filter { $0["bundle"] as? String == bundle }.map { d in
                        d.keys.sorted().map { "\($0)=\(d[$0]!)" }.joined(separator: "|")
                    }
                }
                XCTAssertFalse(shown(whole).isEmpty, "\(fixture): \(bundle) has findings")
                XCTAssertEqual(shown(named), shown(whole), "\(fixture): \(bundle)")
                compared += 1
            }
        }
        XCTAssertEqual(compared, 3)
    }

    func testAStepByStepMigratorInTheAppsCodeDecidesTheBundlesMigrationUnlessTheConfigurationSays() throws {
        let app = try copy("StepMigrator")
        try FileManager.default.moveItem(
            at: app.appendingPathComponent("StoreMigrator.swift.fixture"),
            to: app.appendingPathComponent("StoreMigrator.swift"))
        let diagnostics = jsonDiagnostics(modellint(["check", "--format", "json"], in: app))
        // Only the steps are compared: the direct Near 1 -> Near 3 pair (price: String -> Integer 64) never runs.
        XCTAssertEqual(
            summary(diagnostics),
            [
                "property-removed note Near 1>Near 2 Item.price @5",
                "progressive-migration-likely note ->Near 3 -.- @0",
            ])
        XCTAssertEqual(
            diagnostics[1]["message"] as? String,
            "the app's code migrates stores step by step (NSMigrationManager with migrateStore(from:…) at StoreMigrator.swift:9), so only each version's step to the next is compared: the direct older -> current migrations never run in this app; if its stores also open directly in the current model, set \"migration\": \"direct\" in .modellint.json"
        )
        let text = modellint(["check"], in: app)
        XCTAssertEqual(text.exitCode, 0)
        XCTAssertEqual(
            text.standardOutput, "0 errors, 0 warnings, 2 notes (--notes to list them) in 1 bundle (3 versions)\n")
        // The same bundle named on the command line: the same verdicts.
        XCTAssertEqual(
            summary(jsonDiagnostics(modellint(["check", "Shop.xcdatamodeld", "--format", "json"], in: app))),
            summary(diagnostics))
        // The configuration always wins over the code: at the top level, under the bundle's key, and the command
        // line over both.
        let direct = [
            "property-removed note Near 1>Near 2 Item.price @5",
            "skip-version-upgrade error Near 1>Near 3 Item.price @5",
        ]
        let configuration = app.appendingPathComponent(".modellint.json")
        try Data(#"{ "migration": "direct" }"#.utf8).write(to: configuration)
        XCTAssertEqual(summary(jsonDiagnostics(modellint(["check", "--format", "json"], in: app))), direct)
        try Data(#"{ "bundles": { "Shop.xcdatamodeld": { "migration": "direct" } } }"#.utf8).write(to: configuration)
        XCTAssertEqual(summary(jsonDiagnostics(modellint(["check", "--format", "json"], in: app))), direct)
        try Data(#"{ "bundles": { "Shop.xcdatamodeld": { "migration": "progressive" } } }"#.utf8).write(
            to: configuration)
        XCTAssertEqual(
            summary(jsonDiagnostics(modellint(["check", "--format", "json"], in: app))),
            ["property-removed note Near 1>Near 2 Item.price @5"])
        XCTAssertEqual(
            summary(jsonDiagnostics(modellint(["check", "--format", "json", "--migration", "direct"], in: app))),
            direct)
        try Data(#"{ "bundles": { "Shop.xcdatamodeld": { "migration": "sideways" } } }"#.utf8).write(
            to: configuration)
        let bad = modellint(["check"], in: app)
        XCTAssertEqual(bad.exitCode, 2)
        XCTAssertTrue(
            bad.standardError.contains(
                #"bundles.Shop.xcdatamodeld.migration: must be "direct" or "progressive""#), bad.standardError)
    }

    /// An Objective-C migrator (`[[NSMigrationManager alloc] …]` and `migrateStoreFromURL:…`) decides as a Swift one
    /// does, for the bundle its file loads (`persistentContainerWithName:@"Vault"`).
    func testAnObjectiveCStepMigratorDecidesTheBundlesMigration() throws {
        let app = try copy("StepMigratorObjC")
        try FileManager.default.moveItem(
            at: app.appendingPathComponent("VaultMigrator.m.fixture"),
            to: app.appendingPathComponent("VaultMigrator.m"))
        try FileManager.default.copyItem(
            at: app.appendingPathComponent("Vault.xcdatamodeld"), to: app.appendingPathComponent("Other.xcdatamodeld"))
        let diagnostics = jsonDiagnostics(modellint(["check", "--format", "json"], in: app))
        XCTAssertEqual(
            diagnostics.map {
                "\($0["bundle"]!) \($0["ruleId"]!) \($0["severity"]!) \($0["groupedUnder"] as? String ?? "-")"
            },
            [
                "Other.xcdatamodeld property-removed note -",
                "Other.xcdatamodeld skip-version-upgrade error -",
                "Vault.xcdatamodeld property-removed note -",
                "Vault.xcdatamodeld progressive-migration-likely note -",
            ])
        XCTAssertEqual(
            diagnostics[3]["message"] as? String,
            "the app's code migrates stores step by step (NSMigrationManager with migrateStoreFromURL:… at VaultMigrator.m:21), so only each version's step to the next is compared: the direct older -> current migrations never run in this app; if its stores also open directly in the current model, set \"migration\": \"direct\" in .modellint.json"
        )
    }

    /// What a store that fails to open costs, from the app's code: Journal's loader destroys the store when it does
    /// not open, so the data is lost silently (not a crash); without that code the finding says nothing more.
    func testTheFindingSaysWhatAFailureCostsWhenTheCodeDestroysTheStore() throws {
        let app = try copy("FailureCost")
        let plain = jsonDiagnostics(modellint(["check", "--format", "json"], in: app))
        XCTAssertEqual(
            plain.map { $0["message"] as? String },
            [
                "Entry.mood is required, has no default, and was added to existing entity Entry between Journal 1 and Journal 2: the store fails to open on any device with Entry rows (an empty test store passes)"
            ])
        try FileManager.default.moveItem(
            at: app.appendingPathComponent("Persistence.swift.fixture"),
            to: app.appendingPathComponent("Persistence.swift"))
        let diagnostics = jsonDiagnostics(modellint(["check", "--format", "json"], in: app))
        XCTAssertEqual(
            summary(diagnostics), ["required-attribute-without-default error Journal 1>Journal 2 Entry.mood @4"])
        XCTAssertEqual(
            diagnostics[0]["message"] as? String,
            "Entry.mood is required, has no default, and was added to existing entity Entry between Journal 1 and Journal 2: the store fails to open on any device with Entry rows (an empty test store passes); this app destroys the store when it does not open (destroyPersistentStore at Persistence.swift:11), so instead every row is lost, silently"
        )
        // Objective-C says it the same way.
        XCTAssertEqual(
            SourceReference.scan(
                "[coordinator destroyPersistentStoreAtURL:url withType:NSSQLiteStoreType options:nil error:&error];\n",
                path: "A.m"
            ).map(\.kind), [.storeDestroyer("destroyPersistentStore")])
    }

    /// `init` writes `"migration"` only when nothing in the app's code decides (the configuration would outrank the
    /// code and freeze today's evidence): Mapped's mapping models alone suggest it; with a step migrator, not.
    func testInitLeavesMigrationToTheCodeWhenTheCodeDecides() throws {
        let app = try copy("Mapped")
        XCTAssertEqual(modellint(["init"], in: app).exitCode, 0)
        let suggested = try String(contentsOf: app.appendingPathComponent(".modellint.json"), encoding: .utf8)
        XCTAssertEqual(suggested, "{\n  \"rules\": {},\n  \"migration\": \"progressive\"\n}\n")
        try FileManager.default.removeItem(at: app.appendingPathComponent(".modellint.json"))
        try FileManager.default.copyItem(
            at: repositoryRoot.appendingPathComponent("Fixtures/StepMigrator/StoreMigrator.swift.fixture"),
            to: app.appendingPathComponent("StoreMigrator.swift"))
        let out = modellint(["init"], in: app)
        XCTAssertEqual(out.exitCode, 0)
        XCTAssertEqual(
            try String(contentsOf: app.appendingPathComponent(".modellint.json"), encoding: .utf8),
            "{\n  \"rules\": {}\n}\n")
        XCTAssertFalse(out.standardOutput.contains("\"migration\""), out.standardOutput)
    }

    /// A migrator whose file loads one bundle by name migrates that bundle only: another bundle of the run keeps
    /// its direct comparisons, and its skip-version finding at full severity.
    func testAStepMigratorCountsForTheBundleItsFileLoads() throws {
        let app = try copy("StepMigrator")
        let source = try String(
            contentsOf: app.appendingPathComponent("StoreMigrator.swift.fixture"), encoding: .utf8)
        try FileManager.default.removeItem(at: app.appendingPathComponent("StoreMigrator.swift.fixture"))
        try Data(
            (source + "\nlet container = NSPersistentContainer(name: \"Shop\")\n").utf8
        ).write(to: app.appendingPathComponent("StoreMigrator.swift"))
        try FileManager.default.copyItem(
            at: app.appendingPathComponent("Shop.xcdatamodeld"), to: app.appendingPathComponent("Archive.xcdatamodeld"))
        let diagnostics = jsonDiagnostics(modellint(["check", "--format", "json"], in: app))
        XCTAssertEqual(
            diagnostics.map {
                "\($0["bundle"]!) \($0["ruleId"]!) \($0["severity"]!) \($0["groupedUnder"] as? String ?? "-")"
            },
            [
                "Archive.xcdatamodeld property-removed note -",
                "Archive.xcdatamodeld skip-version-upgrade error -",
                "Shop.xcdatamodeld property-removed note -",
                "Shop.xcdatamodeld progressive-migration-likely note -",
            ])
    }

    /// The code scan's results are kept between runs: an unchanged file is not read again (an altered entry's
    /// references come back, so it was used), a changed one is, and a corrupt entry is ignored and rewritten.
    func testAnUnchangedSwiftFileIsNotScannedAgain() throws {
        let app = try copy("StepMigrator")
        let swift = app.appendingPathComponent("StoreMigrator.swift")
        try FileManager.default.moveItem(at: app.appendingPathComponent("StoreMigrator.swift.fixture"), to: swift)
        // Settled: a file modified in the last two seconds is never stored.
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: swift.path)
        let folder = try makeTemporaryDirectory(self)
        let variables = ["MODELLINT_CACHE_DIR": folder.path]
        func modellint(_ arguments: [String], in directory: URL, variables: [String: String]) -> CommandOutput {
            modifiedNow(directory.appendingPathComponent("Shop.xcdatamodeld"))
            return ModelLintTests.modellint(arguments, in: directory, variables: variables)
        }
        let uncached = modellint(
            ["check", "Shop.xcdatamodeld", "--format", "json", "--no-cache"], in: app, variables: variables)
        let first = modellint(["check", "Shop.xcdatamodeld", "--format", "json"], in: app, variables: variables)
        XCTAssertEqual(first.standardOutput, uncached.standardOutput)
        let entries = try FileManager.default.contentsOfDirectory(
            atPath: folder.appendingPathComponent("swift-references").path)
        XCTAssertEqual(entries.count, 1)
        let entry = folder.appendingPathComponent("swift-references/" + entries[0])
        XCTAssertEqual(
            modellint(["check", "Shop.xcdatamodeld", "--format", "json"], in: app, variables: variables).standardOutput,
            uncached.standardOutput)
        let stored = try String(contentsOf: entry, encoding: .utf8)
        XCTAssertTrue(stored.contains(#"["stepMigrator",9,"#), stored)
        // Altered by hand, the alteration comes back: the file was not read.
        try Data(stored.replacingOccurrences(of: #"["stepMigrator",9,"#, with: #"["stepMigrator",7,"#).utf8).write(
            to: entry)
        XCTAssertTrue(
            modellint(["check", "Shop.xcdatamodeld", "--notes"], in: app, variables: variables).standardOutput.contains(
                "StoreMigrator.swift:7)"))
        // Corrupt: ignored, and rewritten with what the file holds.
        for hostile in ["", "[", #"{"format":1}"#, String(repeating: "[", count: 5_000)] {
            try Data(hostile.utf8).write(to: entry)
            XCTAssertEqual(
                modellint(["check", "Shop.xcdatamodeld", "--format", "json"], in: app, variables: variables)
                    .standardOutput,
                uncached.standardOutput)
            XCTAssertTrue(try String(contentsOf: entry, encoding: .utf8).contains(#"["stepMigrator",9,"#))
        }
        // Changed: read afresh.
        try Data(("\n\n" + (try String(contentsOf: swift, encoding: .utf8))).utf8).write(to: swift)
        XCTAssertTrue(
            modellint(["check", "Shop.xcdatamodeld", "--notes"], in: app, variables: variables).standardOutput.contains(
                "StoreMigrator.swift:11)"))
    }

    func testTheScannerReadsMigratorsAndLoadedModelsNotComments() {
        func kinds(_ text: String) -> [SourceReference.Kind] { SourceReference.scan(text, path: "A.swift").map(\.kind) }
        XCTAssertEqual(kinds("let m = NSStagedMigrationManager(stages)\n"), [.stepMigrator("NSStagedMigrationManager")])
        XCTAssertEqual(kinds("let m = NSMigrationManager(sourceModel: a, destinationModel: b)\n"), [])
        XCTAssertEqual(
            kinds("let m = NSMigrationManager(sourceModel: a, destinationModel: b)\ntry m.migrateStore(\n"),
            [.stepMigrator("NSMigrationManager")])
        XCTAssertEqual(kinds("// NSStagedMigrationManager(stages)\n /// see NSStagedMigrationManager(x)\n"), [])
        // A load named in a comment is documentation: only the code's literal counts.
        XCTAssertEqual(
            kinds(
                "/// loads `\"Shop 2.mom\"`, as NSPersistentContainer(name: \"Shop\") does\n * see \"Old.mom\"\nlet u = b.url(forResource: \"New\", withExtension: \"mom\") // not \"Other.mom\"\n"
            ), [.versionName("New")])
        XCTAssertEqual(
            kinds(
                "let c = NSPersistentCloudKitContainer(name: \"Notes\")\nlet u = b.url(forResource: \"Old\", withExtension: \"momd\")\nlet m = NSManagedObjectModel.mergedModel(from: nil)\n"
            ), [.modelName("Notes"), .modelName("Old"), .modelName("")])
    }

    /// Objective-C's calls and literals read as Swift's are; a comment ends where Swift's lexer ends a line (LF, CR,
    /// CRLF), so code after a lone CR is read and a commented-out call is not.
    func testTheScannerReadsObjectiveCAndEndsLinesAsTheLexerDoes() {
        func found(_ text: String, _ path: String = "A.m") -> [String] {
            SourceReference.scan(text, path: path).map {
                "\($0.kind) @\($0.location.line ?? 0):\($0.location.column ?? 0)"
            }
        }
        XCTAssertEqual(
            found(
                "NSMigrationManager *m = [[NSMigrationManager alloc] initWithSourceModel:a destinationModel:b];\n[m migrateStoreFromURL:u type:t options:nil withMappingModel:nil toDestinationURL:d destinationType:t destinationOptions:nil error:e];\n"
            ), ["stepMigrator(\"NSMigrationManager\") @1:26"])
        XCTAssertEqual(found("[[NSMigrationManager alloc] init];\n"), [], "no store migrated with it")
        XCTAssertEqual(
            found(
                "c = [NSPersistentContainer persistentContainerWithName:@\"Vault\"];\nc = [[NSPersistentCloudKitContainer alloc] initWithName:@\"Notes\"];\nu = [b URLForResource:@\"Old\" withExtension:@\"momd\"];\nm = [NSManagedObjectModel mergedModelFromBundles:nil];\n"
            ),
            [
                "modelName(\"Vault\") @1:18", "modelName(\"Notes\") @2:27", "modelName(\"Old\") @3:8",
                "modelName(\"\") @4:27",
            ])
        // `// note<CR>` ends the comment: the migrator after it is code, on line 2.
        XCTAssertEqual(
            found("// note\rlet m = NSStagedMigrationManager(stages)\n", "A.swift"),
            ["stepMigrator(\"NSStagedMigrationManager\") @2:9"])
        XCTAssertEqual(
            found("// a\r\n// b\rlet c = NSPersistentContainer(name: \"Shop\")\r\n", "A.swift"),
            ["modelName(\"Shop\") @3:9"])
        XCTAssertEqual(found("// NSStagedMigrationManager(stages)\r\n", "A.swift"), [])
    }

    func testBundlesNothingBuildsAreNotesAndIncludeUnshippedRestoresThem() throws {
        let app = try copy("Unshipped")
        let diagnostics = jsonDiagnostics(modellint(["check", "--format", "json"], in: app))
        XCTAssertEqual(
            diagnostics.map { "\($0["bundle"]!) \($0["ruleId"]!) \($0["severity"]!)" },
            [
                "App/Model.xcdatamodeld missing-inverse warning",
                "Legacy/Old.xcdatamodeld bundle-not-shipped note",
                "Legacy/Old.xcdatamodeld missing-inverse note",
                "docs/Model.xcdatamodeld bundle-not-shipped note",
                "docs/Model.xcdatamodeld missing-inverse note",
            ], "App/Model is loaded by NSPersistentContainer(name: \"Model\"); nothing builds the other two")
        XCTAssertEqual(
            diagnostics[1]["message"] as? String,
            "Old.xcdatamodeld is not shipped: no Xcode project, CocoaPods spec, package manifest, project spec or code of the repository references it; its other findings are notes"
        )
        XCTAssertEqual(
            diagnostics[3]["message"] as? String,
            "Model.xcdatamodeld is not shipped: it is in a docs folder (documentation or test fixtures), which no build ships; its other findings are notes"
        )
        let included = jsonDiagnostics(modellint(["check", "--format", "json", "--include-unshipped"], in: app))
        XCTAssertEqual(included.filter { $0["severity"] as? String == "warning" }.count, 3)
        // A bundle named on the command line is judged as the user asked.
        XCTAssertEqual(
            summary(jsonDiagnostics(modellint(["check", "Legacy/Old.xcdatamodeld", "--format", "json"], in: app))),
            ["missing-inverse warning ->Old Note.folder @5"])
        // Without an Xcode project in the tree, nothing says what builds: every bundle is judged.
        try FileManager.default.removeItem(at: app.appendingPathComponent("App.xcodeproj"))
        let noProject = jsonDiagnostics(modellint(["check", "--format", "json"], in: app))
        XCTAssertEqual(
            noProject.map { "\($0["ruleId"]!) \($0["severity"]!)" },
            [
                "missing-inverse warning", "missing-inverse warning", "bundle-not-shipped note", "missing-inverse note",
            ])
    }

    /// A pre-commit run judges the code the commit holds: the step migrator staged and then deleted from the work
    /// tree still decides the verdict, whether the run reads the code (`--no-cache`, or the first run) or takes
    /// what an earlier run kept for the index's code files, and staging the deletion changes it.
    func testAPreCommitRunJudgesTheIndexsCode() throws {
        let app = try copy("StepMigrator")
        try FileManager.default.moveItem(
            at: app.appendingPathComponent("StoreMigrator.swift.fixture"),
            to: app.appendingPathComponent("StoreMigrator.swift"))
        _ = try git(["init", "-q"], in: app)
        _ = try git(["add", "-A"], in: app)
        _ = try git(["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "app"], in: app)
        let newest = app.appendingPathComponent("Shop.xcdatamodeld/Near 3.xcdatamodel/contents")
        try replaceInFile(newest, "</model>", with: "</model>\n")
        _ = try git(["add", "-A"], in: app)
        let variables = ["MODELLINT_CACHE_DIR": app.appendingPathComponent(".cache").path]
        func verdicts(_ extra: [String] = []) -> [String] {
            jsonDiagnostics(
                modellint(
                    ["check", "--pre-commit", "--format", "json", "--notes"] + extra, in: app, variables: variables)
            ).map { "\($0["ruleId"]!) \($0["severity"]!)" }
        }
        let staged = verdicts()
        XCTAssertTrue(staged.contains("progressive-migration-likely note"), "\(staged)")
        XCTAssertEqual(verdicts(), staged, "kept for the index's code files")
        let migrator = app.appendingPathComponent("StoreMigrator.swift")
        try Data("// moved elsewhere\n".utf8).write(to: migrator)
        XCTAssertEqual(verdicts(), staged, "the work tree's unstaged deletion is not what is committed")
        XCTAssertEqual(verdicts(["--no-cache"]), staged, "read from the index without the cache too")
        _ = try git(["add", "-A"], in: app)
        let deleted = verdicts()
        XCTAssertFalse(deleted.contains("progressive-migration-likely note"), "\(deleted)")
        XCTAssertEqual(verdicts(["--no-cache"]), deleted)
    }

    /// A pod's repository: its example app's project does not list the model, and the Objective-C code loads it by a
    /// name held in a constant. The podspec's `resource_bundles` ships it: judged at full severity. Without the
    /// spec, or with one listing other files, nothing builds it; a spec whose patterns are computed decides nothing.
    func testAPodspecShipsTheBundlesItsPatternsList() throws {
        let app = try copy("PodLibrary")
        _ = try git(["init", "-q"], in: app)
        func verdicts() -> [String] {
            jsonDiagnostics(modellint(["check", "--format", "json"], in: app)).map {
                "\($0["ruleId"]!) \($0["severity"]!)"
            }
        }
        XCTAssertEqual(verdicts(), ["missing-inverse warning"])
        let spec = app.appendingPathComponent("VaultKit.podspec")
        let written = try String(contentsOf: spec, encoding: .utf8)
        try replaceInFile(spec, "['VaultKit/Assets/*.xcdatamodeld']", with: "['VaultKit/Assets/*.xcassets']")
        XCTAssertEqual(verdicts(), ["bundle-not-shipped note", "missing-inverse note"])
        try written.write(to: spec, atomically: true, encoding: .utf8)
        try replaceInFile(spec, "['VaultKit/Assets/*.xcdatamodeld']", with: "Dir.glob('VaultKit/Assets/*')")
        XCTAssertEqual(verdicts(), ["missing-inverse warning"], "computed patterns: unknown is judged as shipped")
        // The JSON form CocoaPods' trunk keeps.
        try FileManager.default.removeItem(at: spec)
        try #"{"name": "VaultKit", "resource_bundles": {"VaultKit": ["VaultKit/Assets/Vault.xcdatamodeld"]}}"#.write(
            to: app.appendingPathComponent("VaultKit.podspec.json"), atomically: true, encoding: .utf8)
        XCTAssertEqual(verdicts(), ["missing-inverse warning"])
        try FileManager.default.removeItem(at: app.appendingPathComponent("VaultKit.podspec.json"))
        XCTAssertEqual(verdicts(), ["bundle-not-shipped note", "missing-inverse note"])
    }

    /// PaletteTransformer subclasses NSSecureUnarchiveFromDataTransformer and allows [UIColor, NSArray]: moving a
    /// UIColor or [UIColor] attribute from the default transformer to it is a note, a UIFont one a warning; a
    /// transformer name kept in User Info (`transformer`) is the attribute's transformer, so `tint` did not change.
    func testTheAppsOwnSecureTransformersAndAKeptTransformerName() throws {
        let app = try copy("AppTransformers")
        let diagnostics = jsonDiagnostics(modellint(["check", "--format", "json"], in: app))
        XCTAssertEqual(
            summary(diagnostics),
            [
                "transformer-changed note Prefs 1>Prefs 2 Theme.accent @4",
                "transformer-changed warning Prefs 1>Prefs 2 Theme.font @5",
                "transformer-changed note Prefs 1>Prefs 2 Theme.swatches @6",
            ])
        XCTAssertEqual(
            diagnostics[1]["message"] as? String,
            "Theme.font changed transformer from the default transformer (UIFont) to PaletteTransformer (UIFont) between Prefs 1 and Prefs 2: PaletteTransformer, the app's NSSecureUnarchiveFromDataTransformer subclass, does not list UIFont in its allowedTopLevelClasses, so existing UIFont values fail to decode after the update"
        )
        // Without the app's code, PaletteTransformer is a transformer modellint knows nothing about.
        try FileManager.default.removeItem(at: app.appendingPathComponent("PaletteTransformer.swift"))
        XCTAssertEqual(
            summary(jsonDiagnostics(modellint(["check", "--format", "json"], in: app))),
            [
                "transformer-changed warning Prefs 1>Prefs 2 Theme.accent @4",
                "transformer-changed warning Prefs 1>Prefs 2 Theme.font @5",
                "transformer-changed warning Prefs 1>Prefs 2 Theme.swatches @6",
            ])
    }

    func testTransformerClassesAreReadWithTheirNamesAndAllowedClasses() {
        let text = """
            @objc(LegacyColors) class BaseColorTransformer: NSSecureUnarchiveFromDataTransformer {
                override class var allowedTopLevelClasses: [AnyClass] {
                    return [UIColor.self]
                }
            }
            final class TintTransformer: BaseColorTransformer {}
            class OtherTransformer: ValueTransformer {}
            let s = "class FakeTransformer: NSSecureUnarchiveFromDataTransformer"

            """
        let transformers = AppTransformers(SourceReference.scan(text, path: "T.swift"))
        XCTAssertEqual(
            transformers.classes.map(\.className), ["BaseColorTransformer", "TintTransformer", "OtherTransformer"])
        XCTAssertEqual(transformers.secure(named: "LegacyColors")?.allowed, ["UIColor"])
        XCTAssertEqual(transformers.secure(named: "TintTransformer")?.allowed, ["UIColor"], "inherited from its base")
        XCTAssertNil(transformers.secure(named: "OtherTransformer"), "not a secure unarchiver")
        XCTAssertNil(transformers.secure(named: "FakeTransformer"), "a string, not a declaration")
    }
}

/// `NSManagedObject` subclasses against their entities: only stored `@NSManaged var`s are properties (Xcode's
/// generated to-many accessors are methods), and a property an abstract entity's class declares that each concrete
/// subentity models is the entity's through its hierarchy.
final class ManagedObjectClassTests: XCTestCase {
    func testGeneratedAccessorsAndSubentityPropertiesAreNotMissingProperties() throws {
        let app = try makeTemporaryDirectory(self).appendingPathComponent("app")
        try FileManager.default.copyItem(
            at: repositoryRoot.appendingPathComponent("Fixtures/ModelClasses/GeneratedAccessors"), to: app)
        for name in ["Item+CoreDataProperties.swift", "Tag+CoreDataProperties.swift"] {
            try FileManager.default.moveItem(
                at: app.appendingPathComponent(name + ".fixture"), to: app.appendingPathComponent(name))
        }
        let diagnostics = jsonDiagnostics(modellint(["check", "--format", "json"], in: app))
        XCTAssertEqual(
            diagnostics.map { "\($0["ruleId"]!) \($0["file"]!):\($0["line"]!) \($0["bundle"]!)" },
            ["model-class-mismatch Tag+CoreDataProperties.swift:11 Library.xcdatamodeld"])
        XCTAssertEqual(
            diagnostics.first?["message"] as? String,
            "Tag.color is @NSManaged in the class but Tag in Library.xcdatamodeld's current version Library has no such property: Core Data generates no accessor for it, and the app crashes on first use"
        )
    }
}
