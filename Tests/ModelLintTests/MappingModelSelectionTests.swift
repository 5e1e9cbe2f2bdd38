import Foundation
import XCTest
import ModelLintSupport
import ModelLintModel
import ModelLintCommands
import ModelLintGather

/// Which pairs Core Data picks a mapping model for: the hashes its linked entity mappings record, each side a subset
/// of the store model's and the destination model's. Each fixture under Fixtures/MappingModels/LinkedMappings is
/// copied out of this repository first, so no other fixture's mapping model is beside it.
final class MappingModelSelectionTests: XCTestCase {
    private func copy(_ scenario: String) throws -> URL {
        let directory = try makeTemporaryDirectory(self).appendingPathComponent(scenario)
        try FileManager.default.copyItem(
            at: repositoryRoot.appendingPathComponent("Fixtures/MappingModels/LinkedMappings/\(scenario)"),
            to: directory)
        return directory
    }

    /// An app and its watch extension each ship a `Vault.xcdatamodeld` with versions named alike. The app's mapping
    /// model embeds the app's versions, and its paths (`Vault.xcdatamodeld/Vault 1.xcdatamodel`) name both bundles:
    /// it maps the app's, so it is no stale mapping model of the watch's (an error before). The gate sees the same.
    func testAMappingModelOfOneSameNamedBundleIsNotStaleForTheOther() throws {
        let app = try makeTemporaryDirectory(self).appendingPathComponent("SameName")
        try FileManager.default.copyItem(
            at: repositoryRoot.appendingPathComponent("Fixtures/MappingModels/SameName"), to: app)
        try git(["init", "-q"], in: app)
        let diagnostics = jsonDiagnostics(modellint(["check", "--format", "json", "--notes"], in: app))
        XCTAssertEqual(
            diagnostics.map { "\($0["bundle"]!) \($0["ruleId"]!) \($0["severity"]!)" },
            ["App/Vault.xcdatamodeld progressive-migration-likely warning"])
        // Without the app's bundle the mapping model maps nothing here: stale for the watch's, as before.
        try FileManager.default.removeItem(at: app.appendingPathComponent("App/Vault.xcdatamodeld"))
        XCTAssertEqual(
            jsonDiagnostics(modellint(["check", "--format", "json"], in: app)).map { "\($0["ruleId"]!)" },
            ["mapping-model-stale"])
    }

    func testOnlyTheMappingsTheMappingModelListsAreLinked() throws {
        let xml = repositoryRoot.appendingPathComponent(
            "Fixtures/MappingModels/LinkedMappings/EntityAddedLater/Migrations/Notes1ToNotes2.xcmappingmodel/xcmapping.xml"
        )
        let bytes = [UInt8](try Data(contentsOf: xml))
        // Folder's mapping is a leftover: no relationship lists it.
        XCTAssertEqual(LinkedEntityMappings.read(bytes), [LinkedEntityMapping(source: "Note", destination: "Note")])
        func read(_ body: String) -> [LinkedEntityMapping]? { LinkedEntityMappings.read(Array(body.utf8)) }
        // No list at all (not the editor's file): unknown, and the embedded models are compared whole.
        XCTAssertNil(read(#"<database><object type="XDDEVMAPPINGMODEL" id="z1"></object></database>"#))
        XCTAssertEqual(
            read(
                #"<database><object type="XDDEVMAPPINGMODEL" id="z1"><relationship name="entitymappings" type="0/0" destination="XDDEVENTITYMAPPING"></relationship></object></database>"#
            ), [])
        // Add and remove mappings have one side; names are XML text; ids are listed in the mapping model's order.
        XCTAssertEqual(
            read(
                """
                <database>
                <object type="XDDEVENTITYMAPPING" id="z3"><attribute name="sourcename" type="string">Old&amp;Gone</attribute></object>
                <object type="XDDEVMAPPINGMODEL" id="z1"><relationship name="entitymappings" type="0/0" destination="XDDEVENTITYMAPPING" idrefs="z2 z3 z9"></relationship></object>
                <object type="XDDEVENTITYMAPPING" id="z2"><attribute name="destinationname" type="string">New&#x41;</attribute></object>
                </database>
                """),
            [
                LinkedEntityMapping(source: nil, destination: "NewA"),
                LinkedEntityMapping(source: "Old&Gone", destination: nil),
            ])
    }

    /// Entities the mapping model does not map (Tag and the abstract Record added since, Folder changed since with
    /// only a leftover mapping) do not make it stale: Core Data still picks it for its step, and drops Folder's rows.
    func testEntitiesItDoesNotMapLeaveTheMappingModelInUse() throws {
        let app = try copy("EntityAddedLater")
        let diagnostics = jsonDiagnostics(modellint(["check", "--format", "json"], in: app))
        XCTAssertEqual(
            summary(diagnostics),
            [
                "mapping-model-drops-entity warning ->Notes 2 Folder.- @0",
                "progressive-migration-likely warning ->Notes 2 -.- @0",
            ])
        // Folder's mapping is a leftover the compiler drops: Notes 2 keeps Folder, but a migrated store loses its rows.
        XCTAssertEqual(
            diagnostics[0]["message"] as? String,
            "Notes1ToNotes2 has no entity mapping for Folder, an entity of Notes 1: Core Data picks it to migrate stores of Notes 1, and every Folder row is dropped"
        )
        XCTAssertEqual(diagnostics[0]["file"] as? String, "Migrations/Notes1ToNotes2.xcmappingmodel/xcmapping.xml")
        let text = modellint(["hashes", "Migrations/Notes1ToNotes2.xcmappingmodel"], in: app).standardOutput
        let lines = text.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.first, "Migrations/Notes1ToNotes2.xcmappingmodel")
        XCTAssertTrue(lines.contains("  linked entity mappings: 1"), text)
        XCTAssertEqual(lines.filter { $0.hasPrefix("    ") }.map { $0.split(separator: " ").first! }, ["Note", "Note"])
        XCTAssertEqual(lines.last, "  Notes.xcdatamodeld: picked for Notes 1 -> Notes 2")
    }

    /// A mapped entity changed in place since the mapping model was made: never picked, and the finding names the
    /// change to the mapped entity only.
    func testAMappedEntityChangedInPlaceMakesItStale() throws {
        let app = try copy("MappedEntityChanged")
        let diagnostics = jsonDiagnostics(modellint(["check", "--format", "json"], in: app))
        XCTAssertEqual(summary(diagnostics), ["mapping-model-stale error ->Memos 2 -.- @0"])
        XCTAssertEqual(
            diagnostics[0]["message"] as? String,
            "Memos1ToMemos2 records destination hashes that no version of Memos has: Memos 2, which its path names, has changed since (Memo.pinned added). Core Data picks a mapping model by these hashes, so it never uses this one for Memos 1 -> Memos 2, and the custom migration it holds does not run"
        )
        XCTAssertEqual(
            modellint(["hashes", "Migrations/Memos1ToMemos2.xcmappingmodel"], in: app).standardOutput.split(
                separator: "\n"
            ).last,
            "  Memos.xcdatamodeld: picked for no pair of its versions: no version has its destination hashes (Memos 2: Memo.pinned added)"
        )
    }

    /// Core Data picks the mapping model for Cards 2 -> Cards 3 for a store of Cards 1 too (its mapped entities are
    /// unchanged from Cards 1): the direct pair's findings are covered, notes that say why.
    func testAMappingModelCoversTheDirectPairsWhoseHashesContainItsRecordedOnes() throws {
        let app = try copy("CoversSkippedVersion")
        let diagnostics = jsonDiagnostics(modellint(["check", "--format", "json"], in: app))
        XCTAssertEqual(
            summary(diagnostics),
            [
                "progressive-migration-likely warning ->Cards 3 -.- @0",
                "skip-version-upgrade note Cards 1>Cards 3 Review.- @9",
                "entity-removed note Cards 2>Cards 3 Review.- @9",
                "required-attribute-without-default note Cards 2>Cards 3 Card.front @4",
                "skip-version-upgrade note Cards 1>Cards 3 Card.front @4",
            ])
        XCTAssertEqual(
            diagnostics[4]["message"] as? String,
            "Card.front is required, has no default, and was added to existing entity Card between Cards 1 and Cards 3: the store fails to open on any device with Card rows (an empty test store passes); only devices updating straight from Cards 1 meet it (covered by the mapping model Cards2ToCards3, which Core Data picks for these stores too: the entity hashes it records are in theirs)"
        )
        XCTAssertEqual(diagnostics[4]["mappingModel"] as? String, "Cards2ToCards3")
        XCTAssertEqual(
            modellint(["hashes", "Migrations/Cards2ToCards3.xcmappingmodel"], in: app).standardOutput.split(
                separator: "\n"
            ).last,
            "  Cards.xcdatamodeld: picked for Cards 1 -> Cards 3 and Cards 2 -> Cards 3")
        // JSON names every version each side accepts.
        let json = try XCTUnwrap(
            try JSONSerialization.jsonObject(
                with: Data(
                    modellint(["hashes", "Migrations/Cards2ToCards3.xcmappingmodel", "--format", "json"], in: app)
                        .standardOutput.utf8)) as? [String: Any])
        let bundles = try XCTUnwrap(json["bundles"] as? [[String: Any]])
        XCTAssertEqual(bundles.count, 1)
        XCTAssertEqual(bundles[0]["sources"] as? [String], ["Cards 1", "Cards 2"])
        XCTAssertEqual(bundles[0]["destinations"] as? [String], ["Cards 3"])
        XCTAssertEqual((json["sourceHashes"] as? [String: Any]).map { $0.keys.sorted() }, ["Card", "Deck"])
        XCTAssertEqual(json["linkedEntityMappings"] as? Int, 2)
    }

    /// On real mapping models: Delta's mapping for Delta 3 -> Delta 4 is picked for its step; the one for
    /// Delta 10 -> Delta 11 is not, since its mapped Game entity gained an attribute in place.
    func testRealMappingModelsArePickedByTheirLinkedMappings() throws {
        let corpus = try requireCorpus()
        let delta = corpus.appendingPathComponent("rileytestut__Delta")
        let migrations = "Delta/Database/Model/Migrations/"
        XCTAssertEqual(
            modellint(["hashes", migrations + "Delta3ToDelta4.xcmappingmodel"], in: delta).standardOutput.split(
                separator: "\n"
            ).suffix(2),
            [
                "  Delta/Database/Model/Delta.xcdatamodeld: picked for Delta 3 -> Delta 4",
                "  Delta/Database/Model/PreviousHarmony.xcdatamodeld: picked for no pair of its versions",
            ])
        let stale = modellint(["hashes", migrations + "Delta10ToDelta11.xcmappingmodel"], in: delta).standardOutput
        XCTAssertTrue(stale.contains("  linked entity mappings: 9\n"), stale)
        XCTAssertTrue(
            stale.contains(
                "  Delta/Database/Model/Delta.xcdatamodeld: picked for no pair of its versions: no version has its destination hashes (Delta 11: Game.isFavorite added)\n"
            ), stale)
    }
}
