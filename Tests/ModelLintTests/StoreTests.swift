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

/// The SQLite reader and `modellint store`: real CoreDataPlus stores, hand-made ones written by SQLite
/// itself (Scripts/make-store-fixtures.py: one whose metadata exists only in its -wal, one with overflow and
/// interior pages), and hostile bytes.
final class StoreTests: XCTestCase {
    let stores = repositoryRoot.appendingPathComponent("Fixtures/Stores")
    let near = repositoryRoot.appendingPathComponent("Fixtures/Near.xcdatamodeld")

    private func versions(_ bundle: URL) -> [VersionRef] {
        BundleLoader.load(bundleURL: bundle, displayPath: "b").readableVersions
    }

    func testEveryCoreDataPlusStoreMatchesTheVersionThatWroteIt() throws {
        let root = try requireCorpus().appendingPathComponent("alemar11__CoreDataPlus/Tests/Resources")
        for (store, bundle, version) in [
            ("SampleModel/Fixtures/SampleModel_V1.sqlite", "SampleModel/SampleModel.xcdatamodeld", "SampleModel"),
            ("SampleModel/Fixtures/SampleModel_V2.sqlite", "SampleModel/SampleModel.xcdatamodeld", "SampleModel2"),
            ("SampleModel3/Fixtures/SampleModel3_V1.sqlite", "SampleModel3/SampleModel3.xcdatamodeld", "SampleModel3"),
        ] {
            let metadata = try StoreMetadata.read(path: root.appendingPathComponent(store).path)
            XCTAssertEqual(
                metadata.matchingVersions(versions(root.appendingPathComponent(bundle))).map(\.name), [version], store)
            XCTAssertEqual(metadata.storeType, "SQLite")
        }
        // SampleModel2's stores (a 1.8 MB one among them) are read too; their bundle is not in the corpus.
        for store in ["SampleModel2/Fixtures/SampleModel2_V1.sqlite", "SampleModel2/Fixtures/SampleModel2_V2.sqlite"] {
            XCTAssertFalse(
                try StoreMetadata.read(path: root.appendingPathComponent(store).path).entityHashes.isEmpty, store)
        }
    }

    func testMetadataOnlyInTheWALIsRead() throws {
        let metadata = try StoreMetadata.read(path: stores.appendingPathComponent("WALOnly.sqlite").path)
        XCTAssertTrue(metadata.usedWAL)
        XCTAssertEqual(metadata.matchingVersions(versions(near)).map(\.name), ["Near 19"])
        XCTAssertEqual(metadata.versionIdentifiers, ["Near 19"])
        XCTAssertEqual(metadata.uuid, "00000000-0000-4000-8000-000000000019")
        // Without its -wal the database file holds no table at all.
        let directory = try makeTemporaryDirectory(self)
        try FileManager.default.copyItem(
            at: stores.appendingPathComponent("WALOnly.sqlite"), to: directory.appendingPathComponent("S.sqlite"))
        XCTAssertThrowsError(try StoreMetadata.read(path: directory.appendingPathComponent("S.sqlite").path)) { error in
            XCTAssertEqual(
                "\(error)",
                "\(directory.appendingPathComponent("S.sqlite").path) is a SQLite database but not a Core Data store (it has no Z_METADATA table)"
            )
        }
    }

    func testOverflowAndInteriorPagesAreFollowed() throws {
        let file = try SQLiteFile(path: stores.appendingPathComponent("Near20Large.sqlite").path)
        let padding = try XCTUnwrap(file.table(named: "ZPADDING"))
        XCTAssertEqual(padding.columns, ["Z_PK", "ZTEXT"])
        XCTAssertEqual(padding.rows.count, 300)
        XCTAssertEqual(padding.rows.map(\.rowid), (0..<300).map(Int64.init), "in rowid order across interior pages")
        XCTAssertEqual(padding.rows[7].values[1], .text(String(repeating: "padding row 7 ", count: 3)))
        let metadata = try StoreMetadata.read(path: stores.appendingPathComponent("Near20Large.sqlite").path)
        XCTAssertEqual(
            metadata.matchingVersions(versions(near)).map(\.name), ["Near 20"],
            "a 5 KB Z_PLIST over 1 KB pages: overflow pages")
    }

    func testHostileBytesAreErrorsNeverTraps() throws {
        let good = [UInt8](try Data(contentsOf: stores.appendingPathComponent("Near20Large.sqlite")))
        var refused = 0
        for length in stride(from: 0, to: good.count, by: 97) {
            if (try? StoreMetadata.read(SQLiteFile(bytes: Array(good.prefix(length))), path: "s")) == nil {
                refused += 1
            }
        }
        XCTAssertGreaterThan(refused, 0)
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            var bytes = good
            for _ in 0..<8 {
                bytes[Int.random(in: 100..<bytes.count, using: &generator)] = UInt8.random(
                    in: 0...255, using: &generator)
            }
            _ = try? StoreMetadata.read(SQLiteFile(bytes: bytes), path: "s")
        }
        // A b-tree whose interior page points at itself.
        var cyclic = [UInt8](repeating: 0, count: 1024 * 2)
        cyclic.replaceSubrange(0..<16, with: Array("SQLite format 3\u{0}".utf8))
        cyclic[16] = 4
        cyclic[17] = 0  // 1024-byte pages
        cyclic[100] = 0x05  // page 1: interior table page, no cells, right-most pointer -> page 1
        cyclic[108...111] = [0, 0, 0, 1]
        XCTAssertThrowsError(try SQLiteFile(bytes: cyclic).rows(ofTreeAt: 1)) { error in
            XCTAssertEqual("\(error)", "page 1 is reached twice: the b-tree has a cycle")
        }
        XCTAssertThrowsError(
            try SQLiteFile(
                bytes: Array(
                    "not a database at all, but long enough to be read as one by a careless reader...........".utf8)))
    }

    func testReadingNeverWritesOrCreatesFiles() throws {
        let directory = try makeTemporaryDirectory(self)
        for name in ["WALOnly.sqlite", "WALOnly.sqlite-wal"] {
            try FileManager.default.copyItem(
                at: stores.appendingPathComponent(name), to: directory.appendingPathComponent(name))
        }
        let before = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        let bytes = try Data(contentsOf: directory.appendingPathComponent("WALOnly.sqlite-wal"))
        XCTAssertEqual(modellint(["store", "WALOnly.sqlite", near.path], in: directory).exitCode, 0)
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted(), before, "no -shm, no -journal"
        )
        XCTAssertEqual(try Data(contentsOf: directory.appendingPathComponent("WALOnly.sqlite-wal")), bytes)
    }

    /// A copy of Near whose versions are edited; the stores are the fixtures (written by Near 19 and Near 20).
    private func editedNear(_ edit: (URL) throws -> Void) throws -> URL {
        let directory = try makeTemporaryDirectory(self)
        try FileManager.default.copyItem(at: near, to: directory.appendingPathComponent("Near.xcdatamodeld"))
        for name in ["WALOnly.sqlite", "WALOnly.sqlite-wal", "Near20Large.sqlite"] {
            try FileManager.default.copyItem(
                at: stores.appendingPathComponent(name), to: directory.appendingPathComponent(name))
        }
        try edit(directory.appendingPathComponent("Near.xcdatamodeld"))
        return directory
    }

    private func findings(_ out: CommandOutput) -> [String] {
        return jsonDiagnostics(out).map { "\($0["ruleId"]!) \($0["severity"]!) \($0["message"]!)" }
    }

    func testAStoreOfAnEditedVersionIsUnknownWithTheNearestVersion() throws {
        let directory = try editedNear { bundle in
            let contents = bundle.appendingPathComponent("Near 19.xcdatamodel/contents")
            try replaceInFile(
                contents, "<attribute name=\"note\" optional=\"YES\" attributeType=\"String\"/>",
                with: "<attribute name=\"note\" optional=\"YES\" attributeType=\"Binary\"/>")
        }
        let out = modellint(["store", "WALOnly.sqlite", "Near.xcdatamodeld", "--format", "json"], in: directory)
        XCTAssertEqual(out.exitCode, 1)
        XCTAssertEqual(
            findings(out),
            [
                "store-version-unknown error WALOnly.sqlite was written by no version of Near.xcdatamodeld: its entity hashes match none, so Core Data finds no source model and the store does not open (134130). The nearest version is Near 19, which differs in Place."
            ])
    }

    func testAStoreWhoseMigrationMeetsAnErrorFails() throws {
        let directory = try editedNear { bundle in
            let contents = bundle.appendingPathComponent("Near 20.xcdatamodel/contents")
            try replaceInFile(
                contents, "<attribute name=\"note\" optional=\"YES\" attributeType=\"String\"/>",
                with: "<attribute name=\"note\" attributeType=\"String\"/>")
        }
        let out = modellint(["store", "WALOnly.sqlite", "Near.xcdatamodeld", "--format", "json"], in: directory)
        XCTAssertEqual(out.exitCode, 1)
        XCTAssertEqual(
            findings(out),
            [
                "store-migration-fails error WALOnly.sqlite was written by Near 19; migrating it to Near 20 meets 1 error (required-attribute-without-default), listed with it",
                "required-attribute-without-default error Place.note became required without a default between Near 19 and Near 20: rows where it is empty make the store fail to open",
            ], "in version order: the store's version, then the step's finding")
        let text = modellint(["store", "WALOnly.sqlite", "Near.xcdatamodeld"], in: directory).standardOutput
        XCTAssertTrue(
            text.hasPrefix(
                "WALOnly.sqlite: a Core Data SQLite store (metadata read from its -wal)\n  written by: Near 19\n"), text
        )
    }

    func testWithNoBundleNamedTheWriterIsFound() throws {
        let directory = try editedNear { _ in }
        let out = modellint(["store", "Near20Large.sqlite"], in: directory)
        XCTAssertEqual(out.exitCode, 0, out.standardError)
        XCTAssertTrue(out.standardOutput.contains("  written by: Near 20\n"), out.standardOutput)
        let notAStore = modellint(["store", "Near.xcdatamodeld/Near 20.xcdatamodel/contents"], in: directory)
        XCTAssertEqual(notAStore.exitCode, 2)
        XCTAssertEqual(
            notAStore.standardError,
            "modellint: Near.xcdatamodeld/Near 20.xcdatamodel/contents: not a SQLite database: no SQLite header\n")
    }
}

/// `goldenStores` in `check`.
final class GoldenStoreTests: XCTestCase {
    private func project(editing edit: ((URL) throws -> Void)? = nil) throws -> URL {
        let directory = try makeTemporaryDirectory(self)
        try FileManager.default.copyItem(
            at: repositoryRoot.appendingPathComponent("Fixtures/Near.xcdatamodeld"),
            to: directory.appendingPathComponent("Near.xcdatamodeld"))
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("Tests/Golden"), withIntermediateDirectories: true)
        for name in ["WALOnly.sqlite", "WALOnly.sqlite-wal", "Near20Large.sqlite"] {
            try FileManager.default.copyItem(
                at: repositoryRoot.appendingPathComponent("Fixtures/Stores/\(name)"),
                to: directory.appendingPathComponent("Tests/Golden/\(name)"))
        }
        try Data(#"{"goldenStores": ["Tests/Golden/*.sqlite"]}"#.utf8).write(
            to: directory.appendingPathComponent(".modellint.json"))
        try edit?(directory.appendingPathComponent("Near.xcdatamodeld"))
        return directory
    }

    private func findings(_ out: CommandOutput) -> [String] {
        return jsonDiagnostics(out).map { "\($0["ruleId"]!) \($0["severity"]!) \($0["file"]!): \($0["message"]!)" }
    }

    func testGoldenStoresCoverTheirVersionsAndNameTheShippedOnesNothingTests() throws {
        let out = modellint(["check", "--format", "json"], in: try project())
        XCTAssertEqual(out.exitCode, 0, out.standardError)
        XCTAssertEqual(
            findings(out),
            [
                "golden-store-missing note Near.xcdatamodeld/Near 18.xcdatamodel/contents: no golden store was written by Near 18: their migrations to Near 20 are tested by nothing"
            ])
    }

    func testAGoldenStoreOfAnEditedVersionIsUnmatched() throws {
        let out = modellint(
            ["check", "--format", "json"],
            in: try project { bundle in
                let contents = bundle.appendingPathComponent("Near 19.xcdatamodel/contents")
                try replaceInFile(
                    contents, "<attribute name=\"note\" optional=\"YES\" attributeType=\"String\"/>",
                    with: "<attribute name=\"note\" optional=\"YES\" attributeType=\"Binary\"/>")
            })
        XCTAssertEqual(
            findings(out).filter { $0.hasPrefix("golden") },
            [
                "golden-store-unmatched warning Tests/Golden/WALOnly.sqlite: the golden store Tests/Golden/WALOnly.sqlite matches no version of Near.xcdatamodeld (nearest: Near 19, which differs in Place): the migration tests it feeds start from a model no device has",
                "golden-store-missing note Near.xcdatamodeld/Near 18.xcdatamodel/contents: no golden store was written by Near 18 and Near 19: their migrations to Near 20 are tested by nothing",
            ])
    }

    func testAnUnreadableGoldenStoreIsNamed() throws {
        let directory = try project()
        try Data("not a store".utf8).write(to: directory.appendingPathComponent("Tests/Golden/Broken.sqlite"))
        let out = modellint(["check"], in: directory)
        XCTAssertEqual(out.exitCode, 2)
        XCTAssertEqual(
            out.standardError,
            "modellint: golden store Tests/Golden/Broken.sqlite cannot be read: \(directory.appendingPathComponent("Tests/Golden/Broken.sqlite").path): not a SQLite database: no SQLite header\n"
        )
    }

    func testTheCoreDataPlusGoldenStoresAllMatch() throws {
        let root = try requireCorpus().appendingPathComponent("alemar11__CoreDataPlus/Tests/Resources")
        let directory = try makeTemporaryDirectory(self)
        for item in ["SampleModel", "SampleModel3"] {
            try FileManager.default.copyItem(
                at: root.appendingPathComponent(item), to: directory.appendingPathComponent(item))
        }
        try Data(#"{"goldenStores": ["*/Fixtures/*.sqlite"]}"#.utf8).write(
            to: directory.appendingPathComponent(".modellint.json"))
        let out = modellint(["check", "--format", "json"], in: directory)
        XCTAssertEqual(findings(out).filter { $0.contains("golden-store-unmatched") }, [])
    }
}

/// Raw DEFLATE against streams made by zlib (Python's zlib.compressobj(wbits=-15): independent of modellint).
final class InflateTests: XCTestCase {
    private func inflate(_ base64: String) throws -> [UInt8] {
        try Inflate.decompress([UInt8](try XCTUnwrap(Data(base64Encoded: base64))))
    }

    func testStoredFixedAndDynamicBlocks() throws {
        XCTAssertEqual(try inflate("ARcA6P9zdG9yZWQgYmxvY2s6IENvcmUgRGF0YQ=="), Array("stored block: Core Data".utf8))
        XCTAssertEqual(
            try inflate("S0xKThxFxKGKyioA"), Array((String(repeating: "abcabcabcabcabc", count: 20) + "xyz").utf8))
        let dynamic =
            "K8lIVSgszUzOVkgqyi/PU0jLr1DIKs0tKFbIL0stUigBSuckVlUqpOSn64B5o4pHFY8qHlU8qnhU8TBSzMDIxMzCysbOwcnFzcPLxy8gKCQsIiomLiEpJS0jKyevoKikrKKqpq6hqaWto6unb2BoZGxiamZuYWllbWNrZ+/g6OTs4urm7uHp5e3j6+cfEBgUHBIaFh4RGRUdExsXn5CYlJySmpaekZmVnZObl19QWFRcUlpWXlFZVV1TW1ff0NjU3NLa1t7R2dXd09vXP2HipMlTpk6bPmPmrNlz5s6bv2DhosVLli5bvmLlqtVr1q5bv2Hjps1btm7bvmPnrt179u7bf+DgocNHjh47fuLkqdNnzp47f+HipctXrl67fuPmrdt37t67/+Dho8dPnj57/uLlq9dv3r57/+Hjp89fvn77/uPnr99//v77DwA="
        XCTAssertEqual(
            try inflate(dynamic),
            Array(String(repeating: "the quick brown fox jumps over the lazy dog, ", count: 40).utf8)
                + (0...255).map(UInt8.init))
    }

    func testHostileStreamsAreErrors() throws {
        let good = [UInt8](try XCTUnwrap(Data(base64Encoded: "S0xKThxFxKGKyioA")))
        for length in 0..<good.count {
            XCTAssertThrowsError(try Inflate.decompress(Array(good.prefix(length))), "prefix \(length)")
        }
        XCTAssertThrowsError(try Inflate.decompress([0x07])) {
            XCTAssertEqual("\($0)", "a block of the reserved type 3")
        }
        XCTAssertThrowsError(try Inflate.decompress(good, limit: 100)) {
            XCTAssertEqual("\($0)", "output over 100 bytes")
        }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            _ = try? Inflate.decompress(
                (0..<Int.random(in: 1...64, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator)
                })
        }
    }
}

/// The corpus's SampleModel3 with an attribute added since its V1 store was written: no version has the store's
/// hashes, and the store caches the model that wrote it.
func sampleModelEditedSinceItsStore(_ test: XCTestCase) throws -> URL {
    let root = try requireCorpus().appendingPathComponent("alemar11__CoreDataPlus/Tests/Resources")
    let directory = try makeTemporaryDirectory(test)
    try FileManager.default.copyItem(
        at: root.appendingPathComponent("SampleModel3"), to: directory.appendingPathComponent("SampleModel3"))
    _ = try shell("chmod -R u+w .", in: directory)
    let contents = directory.appendingPathComponent(
        "SampleModel3/SampleModel3.xcdatamodeld/SampleModel3.xcdatamodel/contents")
    try replaceInFile(
        contents, "<attribute name=\"petName\"",
        with: "<attribute name=\"nickname\" optional=\"YES\" attributeType=\"String\"/><attribute name=\"petName\"")
    return directory
}

/// Z_MODELCACHE: the store's own model, inflated and read back.
final class ModelCacheTests: XCTestCase {
    func testTheCachedModelHashesToTheStoresRecordedHashes() throws {
        let root = try requireCorpus().appendingPathComponent("alemar11__CoreDataPlus/Tests/Resources")
        let metadata = try StoreMetadata.read(
            path: root.appendingPathComponent("SampleModel3/Fixtures/SampleModel3_V1.sqlite").path)
        let cached = try XCTUnwrap(metadata.cachedModel)
        XCTAssertEqual(cached.entities.map(\.name), ["User"])
        XCTAssertEqual(
            cached.versionHashes.entities, metadata.entityHashes, "the cached model is the model that wrote the store")
    }

    func testAStoreNoVersionWroteIsDiffedFromItsOwnModel() throws {
        let directory = try sampleModelEditedSinceItsStore(self)
        let contents = directory.appendingPathComponent(
            "SampleModel3/SampleModel3.xcdatamodeld/SampleModel3.xcdatamodel/contents")
        let out = modellint(
            ["store", "SampleModel3/Fixtures/SampleModel3_V1.sqlite", "SampleModel3/SampleModel3.xcdatamodeld"],
            in: directory)
        // Core Data migrates it from its cached model, adding an optional attribute: it opens (a warning).
        XCTAssertEqual(out.exitCode, 0, out.standardOutput)
        XCTAssertTrue(
            out.standardOutput.contains(
                """
                  the store's model (Z_MODELCACHE) -> SampleModel3 (SampleModel3/SampleModel3.xcdatamodeld)
                  
                  User
                    + nickname  [lightweight]  String attribute, optional
                """), out.standardOutput)
        XCTAssertTrue(
            out.standardOutput.contains(
                "SampleModel3/Fixtures/SampleModel3_V1.sqlite: warning: SampleModel3/Fixtures/SampleModel3_V1.sqlite was written by no version of SampleModel3/SampleModel3.xcdatamodeld: its entity hashes match none, so Core Data migrates it from the model cached in it (Z_MODELCACHE) and it opens if inferring from that model to SampleModel3 works (store-migration-fails says when it does not); no mapping model made for its version can apply. The nearest version is SampleModel3, which differs in User. [store-version-unknown]"
            ), out.standardOutput)

        // Made required with no default, the new attribute fails that migration: an error, named as from the cache.
        try replaceInFile(
            contents, "<attribute name=\"nickname\" optional=\"YES\" attributeType=\"String\"/>",
            with: "<attribute name=\"nickname\" attributeType=\"String\"/>")
        let failing = modellint(
            [
                "store", "SampleModel3/Fixtures/SampleModel3_V1.sqlite", "SampleModel3/SampleModel3.xcdatamodeld",
                "--format", "json",
            ], in: directory)
        XCTAssertEqual(failing.exitCode, 1)
        XCTAssertEqual(
            jsonDiagnostics(failing).map { "\($0["ruleId"]!) \($0["severity"]!)" },
            [
                "store-migration-fails error", "store-version-unknown warning",
                "required-attribute-without-default error",
            ])
        XCTAssertTrue(
            jsonDiagnostics(failing).contains {
                "\($0["message"]!)"
                    == "SampleModel3/Fixtures/SampleModel3_V1.sqlite was written by no version of SampleModel3/SampleModel3.xcdatamodeld; migrating it from the model cached in it (Z_MODELCACHE) to SampleModel3 meets 1 error (required-attribute-without-default), listed with it"
            }, failing.standardOutput)
    }
}

/// A store no version wrote, whose cached model the app cannot use, or cannot reach: never "does not open (134130)"
/// while the store carries its model.
final class ModelCacheVerdictTests: XCTestCase {

    private func unknown(_ out: CommandOutput) -> [String] {
        jsonDiagnostics(out).filter { $0["ruleId"] as? String == "store-version-unknown" }.map {
            "\($0["severity"]!) \($0["message"]!)"
        }
    }

    private let store = "SampleModel3/Fixtures/SampleModel3_V1.sqlite"
    private let bundle = "SampleModel3/SampleModel3.xcdatamodeld"

    /// An app that migrates step by step looks the store's version up among the bundle's: none, so it fails.
    func testAStepMigratorFindsNoSourceVersion() throws {
        let directory = try sampleModelEditedSinceItsStore(self)
        let out = modellint(["store", store, bundle, "--migration", "progressive", "--format", "json"], in: directory)
        XCTAssertEqual(out.exitCode, 1)
        XCTAssertEqual(
            unknown(out),
            [
                "error \(store) was written by no version of \(bundle): its entity hashes match none. Core Data's automatic migration would open it from the model cached in it (Z_MODELCACHE), but this app migrates step by step, and a step migrator looks the store's version up among the bundle's versions: it finds none and fails, as a staged migration does, whose stages start from the bundle's versions. The nearest version is SampleModel3, which differs in User."
            ])
    }

    /// The cache's DEFLATE stream damaged (its first block made the reserved type): modellint says why it cannot
    /// use the cache, and does not claim the store fails to open.
    func testAnUnreadableCacheIsNamedNotCalledMissing() throws {
        let directory = try sampleModelEditedSinceItsStore(self)
        let path = directory.appendingPathComponent(store).path
        let file = try SQLiteFile(path: path)
        let table = try XCTUnwrap(try file.table(named: "Z_MODELCACHE"))
        let column = try XCTUnwrap(table.columns.firstIndex { $0.caseInsensitiveCompare("Z_CONTENT") == .orderedSame })
        guard case .blob(let blob) = table.rows[0].values[column] else { return XCTFail("no cache blob") }
        var bytes = try XCTUnwrap(FileManager.default.contents(atPath: path))
        let at = try XCTUnwrap(bytes.firstRange(of: Data(blob.prefix(64)))).lowerBound
        bytes[at] = 0x07  // BFINAL 1, BTYPE 11: a reserved block type no inflater accepts
        try bytes.write(to: URL(fileURLWithPath: path))
        let out = modellint(["store", store, bundle, "--format", "json"], in: directory)
        XCTAssertEqual(out.exitCode, 0, out.standardOutput)
        let found = unknown(out)
        XCTAssertEqual(found.count, 1)
        XCTAssertTrue(
            found[0].hasPrefix(
                "warning \(store) was written by no version of \(bundle): its entity hashes match none, so Core Data migrates it from the model cached in it (Z_MODELCACHE); modellint cannot use that model (its \(blob.count) bytes do not inflate ("
            ), found[0])
        XCTAssertFalse(found[0].contains("134130"))
    }
}

/// `store` judges a store's migration as `check` judges the same pairs, with the same mapping models.
final class StoreMigrationPathTests: XCTestCase {
    private func findings(_ out: CommandOutput) -> [String] {
        jsonDiagnostics(out).map { "\($0["ruleId"]!) \($0["severity"]!) \($0["message"]!)" }
    }

    /// Library 3 renames Library 2's `price` to `cost` (renaming identifier "price"). A store of Library 1, written
    /// before `price` existed, loses nothing: its direct hop to Library 3 is not a step, and a renaming identifier
    /// is judged only on steps (as `check` judges it), so `cost` is simply new to that store.
    func testARenamingIdentifierIsNotJudgedAgainstAStoreOlderThanTheProperty() throws {
        let fixtures = repositoryRoot.appendingPathComponent("Fixtures/Stores/RenamedLater")
        let expected = [
            "direct": [],
            // Stepping through Library 2, the rename is a real step, relying on its identifier as check says.
            "progressive": [
                "renaming-id-reliance note Book.price was renamed to cost between Library 2 and Library 3 through its renaming identifier \"price\": if the compiled model loses it, the data is dropped and cost reads nil"
            ],
        ]
        for (migration, findings) in expected {
            let out = modellint(
                ["store", "Library1.sqlite", "Library.xcdatamodeld", "--format", "json", "--migration", migration],
                in: fixtures)
            XCTAssertEqual(out.exitCode, 0, "\(migration): \(out.standardOutput)")
            XCTAssertEqual(self.findings(out), findings, migration)
        }
        let text = modellint(["store", "Library1.sqlite", "Library.xcdatamodeld"], in: fixtures).standardOutput
        XCTAssertTrue(text.contains("\n  migrating to Library 3 (current): one hop, nothing found\n"), text)
    }

    /// On a step, a renaming identifier that names nothing of the store's own version still fails the migration.
    func testAWrongRenamingIdentifierOnTheStoresStepStillFails() throws {
        let directory = try makeTemporaryDirectory(self)
        let source = repositoryRoot.appendingPathComponent("Fixtures/Stores/RenamedLater/Library.xcdatamodeld")
        let bundle = directory.appendingPathComponent("Library.xcdatamodeld")
        try FileManager.default.copyItem(at: source, to: bundle)
        let third = bundle.appendingPathComponent("Library 3.xcdatamodel/contents")
        try replaceInFile(third, "elementID=\"price\"", with: "elementID=\"prize\"")
        let loaded = BundleLoader.load(bundleURL: bundle, displayPath: "Library.xcdatamodeld")
        let second = try XCTUnwrap(loaded.readableVersions.first { $0.name == "Library 2" })
        let metadata = StoreMetadata(
            entityHashes: second.model.versionHashes.entities, versionIdentifiers: [], frameworkVersion: nil,
            storeType: "SQLite", uuid: nil, checksum: nil, usedWAL: false)
        let found = Engine(configuration: Configuration(baseDirectory: directory.path)).run(
            .store(
                Engine.StoreSubject(
                    metadata: metadata, path: "Library2.sqlite", bundle: loaded, settings: nil, mappingModels: [],
                    otherBundles: []))
        ).diagnostics
        XCTAssertEqual(
            found.map { "\($0.ruleId) \($0.severity)" }.sorted(),
            ["renaming-id-unknown error", "property-removed warning", "store-migration-fails error"].sorted(),
            found.map(\.message).joined(separator: "\n"))
    }

    /// A store of `Store`: the mapping model StoreToStore2 covers exactly the step Store -> Store 2, so stepping
    /// through every version converts it (a note naming the mapping model); the one hop to Store 3 is not covered.
    func testAMappingModelCoversTheStoresStepAsInCheck() throws {
        let fixtures = repositoryRoot.appendingPathComponent("Fixtures/Mapped")
        let progressive = modellint(
            ["store", "Stores/Store1.sqlite", "Store.xcdatamodeld", "--format", "json", "--migration", "progressive"],
            in: fixtures)
        XCTAssertEqual(progressive.exitCode, 0, progressive.standardOutput)
        XCTAssertEqual(
            findings(progressive),
            [
                "attribute-type-incompatible note Thing.payload changed type from Binary to String between Store and Store 2; lightweight migration cannot convert it, and the store will fail to open (covered by the mapping model StoreToStore2, matched by the versions its editor's paths name: it embeds no model modellint can read)"
            ])
        let direct = modellint(
            ["store", "Stores/Store1.sqlite", "Store.xcdatamodeld", "--format", "json"], in: fixtures)
        XCTAssertEqual(direct.exitCode, 1)
        XCTAssertEqual(
            findings(direct),
            [
                "store-migration-fails error Stores/Store1.sqlite was written by Store; migrating it to Store 3 meets 1 error (attribute-type-incompatible), listed with it",
                "attribute-type-incompatible error Thing.payload changed type from Binary to String between Store and Store 3; lightweight migration cannot convert it, and the store will fail to open",
            ])
        let text = modellint(
            ["store", "Stores/Store1.sqlite", "Store.xcdatamodeld", "--migration", "progressive"], in: fixtures
        ).standardOutput
        XCTAssertTrue(
            text.contains("\n  migrating to Store 3 (current): 2 steps (progressive migration), 1 note\n"), text)
    }

    /// A store written by a model merged from two bundles (Near 20 and Library 3) is neither unknown nor unopenable:
    /// which entities are this bundle's, and whose the others are, found among the repository's bundles.
    func testAMergedModelsStoreNamesWhatIsThisBundlesAndWhatIsElsewhere() throws {
        let out = modellint(["store", "Fixtures/Stores/Merged.sqlite", "--format", "json"], in: repositoryRoot)
        XCTAssertEqual(out.exitCode, 0, out.standardError)
        XCTAssertEqual(
            findings(out),
            [
                "store-version-unknown note Fixtures/Stores/Merged.sqlite was written by a model merged from Near 20 and Library 3 (Fixtures/Stores/RenamedLater/Library.xcdatamodeld): its entities of Near 20 have Near 20's hashes, and its other entities (Book) are Library 3's. Core Data opens it with the model the app merges (NSManagedObjectModel.mergedModel), so Fixtures/Near.xcdatamodeld alone cannot say what migrating it does."
            ])
        let text = modellint(["store", "Fixtures/Stores/Merged.sqlite"], in: repositoryRoot).standardOutput
        XCTAssertTrue(text.contains("\n  written by: a model merged from Near 20 and Book\n"), text)
        // Where no other bundle is, the rest comes from a model not there.
        let directory = try makeTemporaryDirectory(self)
        try FileManager.default.copyItem(
            at: repositoryRoot.appendingPathComponent("Fixtures/Near.xcdatamodeld"),
            to: directory.appendingPathComponent("Near.xcdatamodeld"))
        try FileManager.default.copyItem(
            at: repositoryRoot.appendingPathComponent("Fixtures/Stores/Merged.sqlite"),
            to: directory.appendingPathComponent("Merged.sqlite"))
        let alone = modellint(["store", "Merged.sqlite", "--format", "json"], in: directory)
        XCTAssertEqual(alone.exitCode, 0, alone.standardError)
        XCTAssertTrue(
            findings(alone).first?.contains(
                "and its other entities (Book) come from a model this repository does not have") == true,
            "\(findings(alone))")
    }

    /// A store of a version after the current one (CoreDataPlus's SampleModel_V2, its bundle's current version
    /// being SampleModel) does not open: Core Data migrates forward only.
    func testAStoreNewerThanTheCurrentVersionSaysSo() throws {
        let repository = try requireCorpus().appendingPathComponent("alemar11__CoreDataPlus")
        let out = modellint(["store", "Tests/Resources/SampleModel/Fixtures/SampleModel_V2.sqlite"], in: repository)
        XCTAssertEqual(out.exitCode, 0, out.standardError)
        XCTAssertTrue(
            out.standardOutput.contains(
                "\n  newer than SampleModel (current): Core Data does not migrate a store back to an older model, so the app does not open it\n"
            ), out.standardOutput)
    }

    /// With no bundle named, `store` says which bundle it found, and what migrating the store to it does.
    func testTheStoreSaysWhichBundleItFoundAndWhatMigratingDoes() throws {
        let out = modellint(["store", "Fixtures/Stores/WALOnly.sqlite"], in: repositoryRoot)
        XCTAssertEqual(out.exitCode, 0, out.standardError)
        XCTAssertEqual(
            out.standardOutput,
            """
            Fixtures/Stores/WALOnly.sqlite: a Core Data SQLite store (metadata read from its -wal)
              written by: Near 19
              bundle: Fixtures/Near.xcdatamodeld (found under the current directory)
              NSPersistenceFrameworkVersion: 1344
              version identifiers: Near 19
              store UUID: 00000000-0000-4000-8000-000000000019
              migrating to Near 20 (current): one hop, nothing found

            0 errors, 0 warnings, 0 notes in 1 bundle (3 versions)

            """)
    }
}

/// The model cached in a store read faithfully: for every corpus store with a cache, the cached
/// model hashes to the store's recorded hashes, and diffed against the version that wrote it finds nothing, not a
/// default, index, delete rule, validation rule or user-info entry: the facts, not only the hashes.
final class CachedModelFidelityTests: XCTestCase {
    /// Each corpus store with a cached model, the bundle version that wrote it, and every facet the diff sees.
    static func differences() throws -> [(store: String, version: String, facets: [String])] {
        let corpus = try requireCorpus()
        var found: [(String, String, [String])] = []
        let stores = try FileManager.default.subpathsOfDirectory(atPath: corpus.path).filter { $0.hasSuffix(".sqlite") }
        let bundles = fixtureAndCorpusBundles().map {
            BundleLoader.load(bundleURL: $0, displayPath: $0.lastPathComponent)
        }
        for store in stores.sorted() {
            guard let metadata = try? StoreMetadata.read(path: corpus.appendingPathComponent(store).path),
                let cached = metadata.cachedModel
            else { continue }
            guard
                let version = bundles.lazy.compactMap({ metadata.matchingVersions($0.readableVersions).first }).first
            else { continue }
            let diff = ModelDiff(
                from: version, to: VersionRef(name: "cache", contentsPath: store, model: cached), isAdjacent: true)
            found.append((store, version.name, facets(of: diff)))
        }
        return found
    }

    /// Every difference a diff sees, one line each.
    static func facets(of diff: ModelDiff) -> [String] {
        var facets: [String] = []
        facets += diff.addedEntities.map { "+entity \($0.name)" }
        facets += diff.removedEntities.map { "-entity \($0.name)" }
        for pair in diff.matchedEntities {
            facets += pair.facets.map { "\(pair.old.name) \($0)" }
            facets += pair.addedProperties.map { "\(pair.old.name) +\($0.name)" }
            facets += pair.removedProperties.map { "\(pair.old.name) -\($0.name)" }
            for property in pair.matchedProperties {
                facets += property.facets.map { "\(pair.old.name).\(property.old.name) \($0)" }
            }
        }
        return facets
    }

    /// Each compiled `.mom` in the corpus (in a `.momd`, or a committed `*.momd_precompiled`) against the source
    /// version with its hashes: the same facts.
    func testEveryCompiledModelDiffsToNothingAgainstItsSourceVersion() throws {
        let corpus = try requireCorpus()
        let bundles = fixtureAndCorpusBundles().map {
            BundleLoader.load(bundleURL: $0, displayPath: $0.lastPathComponent)
        }
        let moms = try FileManager.default.subpathsOfDirectory(atPath: corpus.path).filter {
            $0.hasSuffix(".mom") && ($0.contains(".momd/") || $0.contains(".momd_precompiled/"))
        }
        var compared = 0
        for mom in moms.sorted() {
            let model = try CompiledModelReader.model(at: corpus.appendingPathComponent(mom).path, displayPath: mom)
            guard
                let version = bundles.lazy.compactMap({ bundle in
                    bundle.readableVersions.first { $0.model.versionHashes.entities == model.versionHashes.entities }
                }).first
            else { continue }
            compared += 1
            let diff = ModelDiff(
                from: version, to: VersionRef(name: "compiled", contentsPath: mom, model: model), isAdjacent: true)
            XCTAssertEqual(Self.facets(of: diff), [], "\(mom) (compiled from \(version.name))")
        }
        XCTAssertFalse(compared == 0, "the corpus has compiled models of its versions")
    }

    func testEveryCachedModelDiffsToNothingAgainstTheVersionThatWroteIt() throws {
        let found = try Self.differences()
        XCTAssertFalse(found.isEmpty, "the corpus has stores with a cache that a version wrote")
        for (store, version, facets) in found {
            XCTAssertEqual(facets, [], "\(store) (written by \(version))")
        }
        // Each is a store, a cache and a version the test found by itself (no count written here); the hashes of
        // what was read are the store's recorded ones.
        let corpus = try requireCorpus()
        for (store, _, _) in found {
            let metadata = try StoreMetadata.read(path: corpus.appendingPathComponent(store).path)
            XCTAssertEqual(metadata.cachedModel?.versionHashes.entities, metadata.entityHashes, store)
        }
    }
}
