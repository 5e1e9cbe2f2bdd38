import Foundation
import XCTest
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

/// The migration diff engine on hand-written scenarios (Fixtures/Changes, CloudKit, Mapped).
final class ChangeTests: XCTestCase {
    let fixtures = repositoryRoot.appendingPathComponent("Fixtures")

    private func check(_ path: String, _ extra: [String] = []) -> (CommandOutput, [[String: Any]]) {
        let out = modellint(["check", path, "--format", "json"] + extra, in: fixtures)
        return (out, jsonDiagnostics(out))
    }

    func testCanonicalRenameChainReliesOnTheOriginalIdentifier() {
        let (out, diagnostics) = check("Changes/RenameChain.xcdatamodeld")
        XCTAssertEqual(out.exitCode, 0)
        XCTAssertEqual(
            summary(diagnostics),
            [
                "renaming-id-reliance note Near 1>Near 2 Thing.b @4",
                "renaming-id-reliance note Near 2>Near 3 Thing.c @4",
            ],
            "Near 2 has shipped (it is before the current Near 3): that step is history; the direct Near 1 -> Near 3 pair matches a to c through \"a\""
        )
    }

    func testNonCanonicalRenameChainDropsTheData() {
        let (out, diagnostics) = check("Changes/RenameChainNonCanonical.xcdatamodeld")
        XCTAssertEqual(out.exitCode, 1)
        XCTAssertEqual(
            summary(diagnostics),
            [
                "renaming-id-reliance note Near 1>Near 2 Thing.b @4",
                "property-removed warning Near 2>Near 3 Thing.b @4",
                "renaming-id-not-canonical error Near 2>Near 3 Thing.c @4",
            ])
        XCTAssertEqual(
            diagnostics[2]["message"] as? String,
            "Thing.c's renaming identifier is \"b\", the property's name in Near 2, but its identifier there is \"a\": nothing matches, and the data is dropped"
        )
    }

    func testTypeReusedAfterRemovalPassesAdjacentAndFailsDirect() {
        let (out, diagnostics) = check("Changes/TypeReused.xcdatamodeld")
        XCTAssertEqual(out.exitCode, 1)
        XCTAssertEqual(
            summary(diagnostics),
            [
                "property-removed note Near 1>Near 2 Item.price @5",
                "skip-version-upgrade error Near 1>Near 3 Item.price @5",
            ], "the removal shipped in Near 2 (history); the direct Near 1 -> Near 3 pair still bricks a Near 1 store")
        let skip = diagnostics[1]
        XCTAssertEqual(skip["file"] as? String, "Changes/TypeReused.xcdatamodeld/Near 3.xcdatamodel/contents")
        XCTAssertEqual(skip["underlyingRuleId"] as? String, "attribute-type-incompatible")
        XCTAssertEqual(skip["affectedVersions"] as? [String], ["Near 1"])
        // The fix is the underlying rule's own, plus the progressive option.
        XCTAssertEqual(
            skip["fix"] as? String,
            AttributeTypeIncompatibleRule.description.fix
                + "; or, if the app migrates step by step through every version, set \"migration\": \"progressive\"")
        XCTAssertEqual(
            skip["message"] as? String,
            "Item.price changed type from String to Integer 64 between Near 1 and Near 3; lightweight migration cannot convert it, and the store will fail to open; only devices updating straight from Near 1 meet it"
        )
        let (progressive, progressiveDiagnostics) = check(
            "Changes/TypeReused.xcdatamodeld", ["--migration", "progressive"])
        XCTAssertEqual(progressive.exitCode, 0)
        XCTAssertEqual(summary(progressiveDiagnostics), ["property-removed note Near 1>Near 2 Item.price @5"])
    }

    func testProgressiveModeFromTheConfiguration() throws {
        let directory = try makeTemporaryDirectory(self)
        let source = fixtures.appendingPathComponent("Changes/TypeReused.xcdatamodeld")
        try FileManager.default.copyItem(at: source, to: directory.appendingPathComponent("TypeReused.xcdatamodeld"))
        try Data("{ \"migration\": \"progressive\" }".utf8).write(
            to: directory.appendingPathComponent(".modellint.json"))
        XCTAssertEqual(modellint(["check"], in: directory).exitCode, 0)
        XCTAssertEqual(
            modellint(["check", "--migration", "direct"], in: directory).exitCode, 1, "the option wins over the file")
    }

    func testRequiredAttributeWithAndWithoutDefault() {
        let (_, diagnostics) = check("Changes/RequiredAttribute.xcdatamodeld")
        XCTAssertEqual(summary(diagnostics), ["required-attribute-without-default error Near 1>Near 2 Thing.rank @5"])
    }

    func testToManyBecameToOne() {
        let (_, diagnostics) = check("Changes/ToManyToOne.xcdatamodeld")
        XCTAssertEqual(summary(diagnostics), ["to-many-became-to-one error Near 1>Near 2 Owner.pets @4"])
    }

    func testHierarchyMergeIsOneFindingAndNotParentChanges() {
        let (_, diagnostics) = check("Changes/HierarchyMerge.xcdatamodeld")
        XCTAssertEqual(summary(diagnostics), ["hierarchy-merge error Near 1>Near 2 Media.- @3"])
    }

    func testCloudKitModel() {
        let (_, diagnostics) = check("CloudKit/Synced.xcdatamodeld")
        XCTAssertEqual(
            summary(diagnostics),
            [
                "cloudkit-non-additive-change error Synced 1>Synced 2 Note.text @4",
                "renaming-id-reliance note Synced 1>Synced 2 Note.text @4",
                "cloudkit-required-attribute error ->Synced 2 Note.title @6",
                "required-attribute-without-default error Synced 1>Synced 2 Note.title @6",
                "cloudkit-deny-delete-rule error ->Synced 2 Note.folder @7",
                "cloudkit-missing-inverse error ->Synced 2 Note.folder @7",
                "cloudkit-required-relationship error ->Synced 2 Note.folder @7",
                "missing-inverse warning ->Synced 2 Note.folder @7",
                "relationship-became-required error Synced 1>Synced 2 Note.folder @7",
                "cloudkit-unique-constraint error ->Synced 2 Folder.- @12",
                "uniqueness-constraint-invalid error ->Synced 2 Folder.- @12",
            ])
        XCTAssertTrue(
            (diagnostics[2]["message"] as? String)?.contains(
                "usedWithCloudKit=\"YES\" on the model; if it is a template leftover, set \"cloudKit\": false") == true)
    }

    func testCloudKitOverrideTurnsTheRulesOff() throws {
        let directory = try makeTemporaryDirectory(self)
        try FileManager.default.copyItem(
            at: fixtures.appendingPathComponent("CloudKit/Synced.xcdatamodeld"),
            to: directory.appendingPathComponent("Synced.xcdatamodeld"))
        try Data("{ \"bundles\": { \"Synced.xcdatamodeld\": { \"cloudKit\": false } } }".utf8).write(
            to: directory.appendingPathComponent(".modellint.json"))
        let out = modellint(["check", "--format", "json"], in: directory)
        XCTAssertFalse(out.standardOutput.contains("\"ruleId\": \"cloudkit-"))
        XCTAssertTrue(out.standardOutput.contains("\"ruleId\": \"required-attribute-without-default\""))
    }

    /// A mapping model git still lists but that was deleted from the work tree maps nothing outside a pre-commit
    /// run: the work tree is what builds. The report is the one of a repository that never had it.
    func testAMappingModelDeletedFromTheWorkTreeCoversNothing() throws {
        let directory = try makeTemporaryDirectory(self)
        for name in ["Store.xcdatamodeld", "Migrations"] {
            try FileManager.default.copyItem(
                at: fixtures.appendingPathComponent("Mapped/" + name), to: directory.appendingPathComponent(name))
        }
        _ = try git(["init", "-q", "-b", "main"], in: directory)
        _ = try git(["add", "-A"], in: directory)
        _ = try git(
            ["-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-q", "-m", "base"], in: directory)
        func findings() -> [String] {
            jsonDiagnostics(modellint(["check", "--no-cache", "--format", "json"], in: directory)).map {
                "\($0["ruleId"]!) \($0["severity"]!) \($0["mappingModel"] as? String ?? "-")"
            }
        }
        XCTAssertEqual(
            findings(),
            [
                "attribute-type-incompatible note StoreToStore2", "progressive-migration-likely warning -",
                "skip-version-upgrade error -",
            ])
        try FileManager.default.removeItem(at: directory.appendingPathComponent("Migrations"))
        XCTAssertEqual(findings(), ["attribute-type-incompatible note -"])
        let never = try makeTemporaryDirectory(self)
        try FileManager.default.copyItem(
            at: fixtures.appendingPathComponent("Mapped/Store.xcdatamodeld"),
            to: never.appendingPathComponent("Store.xcdatamodeld"))
        XCTAssertEqual(
            jsonDiagnostics(modellint(["check", "--no-cache", "--format", "json"], in: never)).map {
                "\($0["ruleId"]!) \($0["severity"]!) -"
            }, ["attribute-type-incompatible note -"])
    }

    /// Store 3 does not hold the destination hashes StoreToStore2 records, so Core Data does not pick it for the
    /// direct Store -> Store 3 pair: that pair's problem is still a skip-version finding.
    func testAMappingModelDoesNotCoverADirectPairWhoseDestinationLacksItsHashes() {
        let (out, diagnostics) = check("Mapped")
        XCTAssertEqual(out.exitCode, 1)
        XCTAssertEqual(
            summary(diagnostics),
            [
                "attribute-type-incompatible note Store>Store 2 Thing.payload @4",
                "progressive-migration-likely warning ->Store 3 -.- @0",
                "skip-version-upgrade error Store>Store 3 Thing.payload @4",
            ], "in version order: the Store 2 step, then the findings about the current Store 3")
        XCTAssertEqual(diagnostics[0]["mappingModel"] as? String, "StoreToStore2")
        XCTAssertNil(diagnostics[2]["mappingModel"])
        XCTAssertTrue(
            (diagnostics[2]["message"] as? String)?.hasSuffix(
                "(the mapping model StoreToStore2 is not picked for these stores: the entity hashes it records are not all in theirs)"
            ) == true)
        XCTAssertEqual(
            diagnostics[1]["message"] as? String,
            "Store.xcdatamodeld has mapping models for 1 of its 2 steps (StoreToStore2): apps that ship a mapping model per step usually migrate step by step, and then the direct older -> current comparisons do not apply; set \"migration\" in .modellint.json to say which"
        )
    }

    /// A relationship removed with the entity it pointed at is explained by that entity's removal: one finding.
    func testARelationshipRemovedWithItsDestinationIsTheEntitysRemoval() throws {
        let directory = try makeTemporaryDirectory(self)
        let note = "<attribute name=\"text\" optional=\"YES\" attributeType=\"String\"/>"
        try writeBundle(
            in: directory,
            versions: [
                (
                    "Near 1",
                    "<entity name=\"Note\">\(note)<relationship name=\"folder\" optional=\"YES\" maxCount=\"1\" deletionRule=\"Nullify\" destinationEntity=\"Folder\" inverseName=\"notes\" inverseEntity=\"Folder\"/></entity><entity name=\"Folder\"><relationship name=\"notes\" optional=\"YES\" toMany=\"YES\" deletionRule=\"Nullify\" destinationEntity=\"Note\" inverseName=\"folder\" inverseEntity=\"Note\"/></entity>"
                ),
                ("Near 2", "<entity name=\"Note\">\(note)</entity>"),
            ], current: "Near 2")
        XCTAssertEqual(
            summary(jsonDiagnostics(modellint(["check", "--format", "json"], in: directory)), lines: false),
            ["entity-removed warning Near 1>Near 2 Folder.-"])
    }

    /// A case-only rename is the rename guess's first choice, whatever else was added beside it.
    func testACaseOnlyRenameIsPairedWithItsOwnName() throws {
        let directory = try makeTemporaryDirectory(self)
        try writeBundle(
            in: directory,
            versions: [
                (
                    "Near 1",
                    "<entity name=\"Task\"><attribute name=\"isdone\" optional=\"YES\" attributeType=\"Boolean\"/></entity>"
                ),
                (
                    "Near 2",
                    "<entity name=\"Task\"><attribute name=\"isDONEAll\" optional=\"YES\" attributeType=\"Boolean\"/><attribute name=\"isDone\" optional=\"YES\" attributeType=\"Boolean\"/></entity>"
                ),
            ], current: "Near 2")
        let diagnostics = jsonDiagnostics(modellint(["check", "--format", "json"], in: directory))
        XCTAssertEqual(
            summary(diagnostics, lines: false),
            ["property-renamed-without-renaming-id warning Near 1>Near 2 Task.isDone"])
        XCTAssertTrue(
            (diagnostics.first?["message"] as? String)?.hasPrefix("Task.isdone was removed and Task.isDone added")
                == true)
    }

    /// Core Data reads valueTransformerName only on a Transformable: on a Binary attribute `diff` and `check` agree
    /// that naming one changes nothing.
    func testATransformerNamedOnABinaryAttributeIsInert() throws {
        let directory = try makeTemporaryDirectory(self)
        try writeBundle(
            in: directory,
            versions: [
                (
                    "Near 1",
                    "<entity name=\"A\"><attribute name=\"blob\" optional=\"YES\" attributeType=\"Binary\"/></entity>"
                ),
                (
                    "Near 2",
                    "<entity name=\"A\"><attribute name=\"blob\" optional=\"YES\" attributeType=\"Binary\" valueTransformerName=\"X\"/></entity>"
                ),
            ], current: "Near 2")
        XCTAssertEqual(
            modellint(["diff", "Near.xcdatamodeld"], in: directory).standardOutput,
            "Near 1 -> Near 2 (Near.xcdatamodeld)\n\nno changes\n")
        XCTAssertEqual(jsonDiagnostics(modellint(["check", "--format", "json", "--notes"], in: directory)).count, 0)
    }

    func testMappingModelPairsFromPathsAndFileNames() throws {
        let xml = fixtures.appendingPathComponent("Mapped/Migrations/StoreToStore2.xcmappingmodel/xcmapping.xml").path
        let bundle = BundleLoader.load(
            bundleURL: fixtures.appendingPathComponent("Mapped/Store.xcdatamodeld"), displayPath: "Store.xcdatamodeld")
        let file = MappingModelReader.file(at: xml, displayPath: xml)
        XCTAssertNil(file.source, "a hand-written mapping model without embedded models: the paths decide")
        guard
            case .maps(let mapping)? = MappingModelReader.match(
                file, name: "StoreToStore2", path: xml, versions: bundle.readableVersions)
        else { return XCTFail("StoreToStore2 maps no pair") }
        XCTAssertEqual(mapping, MappingModel(name: "StoreToStore2", source: "Store", destination: "Store 2"))
        XCTAssertEqual(mapping.evidence, .modelPaths)
        func pair(_ name: String, _ versions: [String]) -> String? {
            MappingModelReader.pairFromFileName(name, versions: versions).map { "\($0.0) -> \($0.1)" }
        }
        XCTAssertEqual(pair("DeltaToDelta2", ["Delta", "Delta 2"]), "Delta -> Delta 2")
        XCTAssertEqual(pair("WooCommerceModelV9toV10", ["Model 9", "Model 10", "Model 19"]), "Model 9 -> Model 10")
        XCTAssertEqual(pair("PhotoToPhoto2", ["Photo", "Photo 2"]), "Photo -> Photo 2")
        XCTAssertNil(
            MappingModelReader.pairFromFileName(
                "SingleToMultiasset", versions: ["UserDataModel", "MultiassetUserDataModel"]))
    }

    func testDiffCommandClassifiesEveryChange() {
        let out = modellint(["diff", "Changes/TypeReused.xcdatamodeld", "Near 1", "Near 3"], in: fixtures)
        XCTAssertEqual(out.exitCode, 0)
        XCTAssertEqual(
            out.standardOutput,
            """
            Near 1 -> Near 3 (Changes/TypeReused.xcdatamodeld)

            Item
              ~ price  [needs custom migration]  type String -> Integer 64

            1 change: 1 needs custom migration

            """)
        let json = modellint(["diff", "Changes/RequiredAttribute.xcdatamodeld", "--format", "json"], in: fixtures)
        let object = (try? JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8))) as? [String: Any]
        XCTAssertEqual(object?["from"] as? String, "Near 1")
        XCTAssertEqual(object?["to"] as? String, "Near 2")
        let changes = object?["changes"] as? [[String: Any]] ?? []
        XCTAssertEqual(
            changes.map { "\($0["property"]!) \($0["change"]!) \($0["impact"]!)" },
            ["rank added data-dependent", "score added lightweight"])
        XCTAssertEqual(modellint(["diff", "Near.xcdatamodeld", "Near 7"], in: fixtures).exitCode, 2)
        XCTAssertEqual(modellint(["diff"], in: fixtures).exitCode, 2)
    }

    func testRulesSeeMatchedPairsNotNames() throws {
        // An entity renamed with elementID is one entity: no removal, no rename guess.
        let directory = try makeTemporaryDirectory(self)
        let bundle = try writeBundle(
            in: directory,
            versions: [
                (
                    "Near 1",
                    "<entity name=\"OrderMetaData\"><attribute name=\"key\" optional=\"YES\" attributeType=\"String\"/><attribute name=\"value\" optional=\"YES\" attributeType=\"String\"/></entity>"
                ),
                (
                    "Near 2",
                    "<entity name=\"MetaData\" elementID=\"OrderMetaData\"><attribute name=\"key\" optional=\"YES\" attributeType=\"String\"/><attribute name=\"value\" optional=\"YES\" attributeType=\"String\"/></entity>"
                ),
            ], current: "Near 2")
        XCTAssertEqual(lint(bundle).map(\.ruleId), ["renaming-id-reliance"])
    }

    func testAnUnchangedEntityStillSeesItsDestinationChangeIdentity() throws {
        // Visit is byte-for-byte the same in both versions, but the entity it points at is no longer the same one.
        let directory = try makeTemporaryDirectory(self)
        let visit =
            "<entity name=\"Visit\"><relationship name=\"place\" optional=\"YES\" maxCount=\"1\" deletionRule=\"Nullify\" destinationEntity=\"Place\"/></entity>"
        let bundle = try writeBundle(
            in: directory,
            versions: [
                ("Near 1", visit + "<entity name=\"Place\"/>"),
                ("Near 2", visit + "<entity name=\"Place\" elementID=\"Venue\"/>"),
            ], current: "Near 2")
        XCTAssertTrue(
            lint(bundle).contains {
                $0.ruleId == "relationship-destination-changed" && $0.entity == "Visit" && $0.property == "place"
            })
    }
}

/// `diff` decides "no migration" by Core Data's entity version hashes.
final class DiffByHashTests: XCTestCase {
    func testAnEntityIsNoMigrationExactlyWhenItsHashIsUnchanged() throws {
        let directory = try makeTemporaryDirectory(self)
        let owner =
            "<entity name=\"Owner\"><relationship name=\"pets\" optional=\"YES\" toMany=\"YES\" deletionRule=\"Nullify\" destinationEntity=\"%@\" inverseName=\"owner\" inverseEntity=\"%@\"/></entity>"
        let pet =
            "<entity name=\"%@\" %@><relationship name=\"owner\" optional=\"YES\" maxCount=\"1\" deletionRule=\"Nullify\" destinationEntity=\"Owner\" inverseName=\"pets\" inverseEntity=\"Owner\"/><attribute name=\"name\" optional=\"YES\" attributeType=\"String\" %@/></entity>"
        // Near 2 renames Pet to Animal through its Renaming ID and gives name an elementID: Owner's hash changes
        // (its relationship's destination name is hashed), though no facet of Owner changed; Animal.name's
        // identifier alone changes no hash.
        try writeBundle(
            in: directory,
            versions: [
                ("Near 1", String(format: owner, "Pet", "Pet") + String(format: pet, "Pet", "", "")),
                (
                    "Near 2",
                    String(format: owner, "Animal", "Animal")
                        + String(format: pet, "Animal", "elementID=\"Pet\"", "elementID=\"title\"")
                ),
            ], current: "Near 2")
        let out = modellint(["diff", "Near.xcdatamodeld", "--format", "json"], in: directory)
        XCTAssertEqual(out.exitCode, 0, out.standardError)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(out.standardOutput.utf8)) as? [String: Any])
        let changes = try XCTUnwrap(json["changes"] as? [[String: Any]]).map {
            "\($0["entity"]!).\($0["property"] as? String ?? "-") \($0["impact"]!) \(($0["details"] as? [String] ?? []).joined(separator: "; "))"
        }
        XCTAssertEqual(
            changes,
            [
                "Owner.- lightweight version hash changed",
                "Animal.- lightweight renamed from Pet (renaming identifier \"Pet\"); renaming identifier none -> Pet",
                "Animal.name lightweight String attribute, optional",
                "Animal.name data-loss String attribute, optional, its data is dropped",
            ], "Owner changed no facet, but its relationship's destination name is in its hash")
        let verbose = modellint(["diff", "Near.xcdatamodeld", "--verbose"], in: directory).standardOutput
        let ownerLine = try XCTUnwrap(verbose.components(separatedBy: "\n").first { $0.hasPrefix("Owner ") })
        XCTAssertNotNil(
            ownerLine.range(
                of: #"^Owner  \[lightweight\]  version hash changed; hash [A-Za-z0-9+/]{43}= -> [A-Za-z0-9+/]{43}=$"#,
                options: .regularExpression), ownerLine)
        // --verbose adds detail, never changes: the closing count is the plain run's.
        let plain = modellint(["diff", "Near.xcdatamodeld"], in: directory).standardOutput
        XCTAssertEqual(
            verbose.components(separatedBy: "\n").last { !$0.isEmpty },
            plain.components(separatedBy: "\n").last { !$0.isEmpty })
        XCTAssertEqual(
            plain.components(separatedBy: "\n").last { !$0.isEmpty }, "4 changes: 1 data loss, 3 lightweight")

        // The same name with a new elementID: no hash changes, so Core Data does not migrate the entity at all.
        let same = modellint(
            ["diff", "Precision/IdentifierChanged.xcdatamodeld"], in: repositoryRoot.appendingPathComponent("Fixtures")
        ).standardOutput
        XCTAssertEqual(
            same.components(separatedBy: "\n").filter { $0.hasPrefix("  ") },
            [
                "  + title  [no migration]  String attribute, optional; Item's version hash is unchanged: Core Data does not migrate it",
                "  - title  [no migration]  String attribute, optional, its data is dropped; Item's version hash is unchanged: Core Data does not migrate it",
            ])
    }
}

/// `diff` names the default transformer rather than printing nothing for it.
final class DiffTransformerTests: XCTestCase {
    func testTheDefaultTransformerIsNamed() throws {
        let directory = try makeTemporaryDirectory(self)
        let thing =
            "<entity name=\"Thing\"><attribute name=\"tags\" optional=\"YES\" attributeType=\"Transformable\" %@/></entity>"
        try writeBundle(
            in: directory,
            versions: [
                ("Near 1", String(format: thing, "")),
                ("Near 2", String(format: thing, "valueTransformerName=\"NSSecureUnarchiveFromDataTransformer\"")),
            ], current: "Near 2")
        let out = modellint(["diff", "Near.xcdatamodeld"], in: directory)
        XCTAssertEqual(out.exitCode, 0, out.standardError)
        XCTAssertTrue(
            out.standardOutput.contains(
                "transformer default (NSKeyedUnarchiveFromData) -> NSSecureUnarchiveFromData (old bytes decoded by the new one)"
            ), out.standardOutput)
    }
}
