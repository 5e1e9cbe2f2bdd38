import Foundation
import XCTest
import ModelLintSupport
import ModelLintModel
import ModelLintCompiled
import ModelLintCommands
import ModelLintGather

/// Mapping models are matched by the models they embed (Xcode's editor archive), as Core Data matches them by hash.
final class MappingModelSnapshotTests: XCTestCase {
    let fixtures = repositoryRoot.appendingPathComponent("Fixtures/MappingModels")

    /// One run decodes each embedded model once, however many mapping models embed it: every fixture and corpus
    /// mapping model read through one memo (twice, so the second pass is all memo) gives what it gives alone, and
    /// the memo reads a text again only when it differs.
    func testEmbeddedModelsReadOncePerRunGiveWhatEachFileGivesAlone() throws {
        var roots = [repositoryRoot.appendingPathComponent("Fixtures")]
        if let corpus = try? requireCorpus() { roots.append(corpus) }
        let files = roots.flatMap { root in
            (FileManager.default.subpaths(atPath: root.path) ?? []).filter {
                $0.hasSuffix(".xcmappingmodel/xcmapping.xml")
            }.sorted().map { root.appendingPathComponent($0).path }
        }
        XCTAssertGreaterThan(files.count, 5)
        let memo = EmbeddedModelMemo()
        var compared = 0
        for _ in 0..<2 {
            for path in files {
                let alone = MappingModelReader.file(at: path, displayPath: path)
                let shared = MappingModelReader.file(at: path, displayPath: path, memo: memo)
                XCTAssertEqual(shared.sourceHashes, alone.sourceHashes, path)
                XCTAssertEqual(shared.destinationHashes, alone.destinationHashes, path)
                XCTAssertEqual(shared.cached, alone.cached, path)
                compared += alone.sourceHashes == nil ? 0 : 1
            }
        }
        XCTAssertGreaterThan(compared, 5)
        var reads = 0
        func read() -> EmbeddedModelHashes? {
            reads += 1
            return nil
        }
        let text = Array("QUJD".utf8)
        _ = memo.hashes(of: text[...], read: read)
        _ = memo.hashes(of: text[...], read: read)
        XCTAssertEqual(reads, 1, "a text read, even unreadable, is not read again")
        _ = memo.hashes(of: Array("QUJE".utf8)[...], read: read)
        _ = memo.hashes(of: Array("QUJDRA==".utf8)[...], read: read)
        XCTAssertEqual(reads, 3)
        // Threads asking for one text at once: one reads it, the others wait for what it read.
        let concurrentReads = Locked(0)
        let shared = Array("c2hhcmVk".utf8)
        let results = concurrentMap(Array(0..<32)) { _ in
            memo.hashes(of: shared[...]) {
                concurrentReads.withLock { $0 += 1 }
                Thread.sleep(forTimeInterval: 0.01)
                return EmbeddedModelHashes(Model(location: SourceLocation(file: "x"), entities: []))
            }?.entityCount
        }
        XCTAssertEqual(concurrentReads.withLock { $0 }, 1)
        XCTAssertEqual(results, Array(repeating: 0, count: 32))
    }

    /// Every corpus mapping model, each side matched against its bundle (the one its paths name, found by name in
    /// the same project). The expected match is the version the path names; the one exception was found by reading
    /// the archive by hand (Python's plistlib): Delta 11 gained `Game.isFavorite` after Delta10ToDelta11 was made.
    func testCorpusSnapshotsEqualExactlyTheVersionsTheirPathsName() throws {
        let corpus = try requireCorpus()
        let files = (FileManager.default.subpaths(atPath: corpus.path) ?? []).filter {
            $0.hasSuffix(".xcmappingmodel/xcmapping.xml")
        }.sorted()
        XCTAssertFalse(files.isEmpty)
        var sidesChecked = 0
        for relative in files {
            let file = MappingModelReader.file(at: corpus.appendingPathComponent(relative).path, displayPath: relative)
            guard let source = file.sourceHashes, let destination = file.destinationHashes,
                let sourcePath = file.sourcePath, let destinationPath = file.destinationPath
            else {
                XCTFail("\(relative): embedded models not read")
                continue
            }
            // What the result cache keeps of the file is all that matching reads of it.
            let kept = try XCTUnwrap(MappingModelFile(cached: JSONValue.parse(Data(file.cached.serialized().utf8))))
            XCTAssertEqual(kept.sourceHashes, source, relative)
            XCTAssertEqual(kept.destinationHashes, destination, relative)
            XCTAssertEqual([kept.sourcePath, kept.destinationPath], [sourcePath, destinationPath], relative)
            let bundleName = String(sourcePath.split(separator: "/").dropLast().last ?? "")
            let project = corpus.appendingPathComponent(String(relative.split(separator: "/")[0]))
            let bundles = (FileManager.default.subpaths(atPath: project.path) ?? []).filter {
                ($0 as NSString).lastPathComponent == bundleName
            }
            XCTAssertEqual(bundles.count, 1, "\(relative): its bundle \(bundleName)")
            guard let bundlePath = bundles.first else { continue }
            let versions = BundleLoader.load(
                bundleURL: project.appendingPathComponent(bundlePath), displayPath: bundlePath
            ).readableVersions
            for (snapshot, path) in [(source, sourcePath), (destination, destinationPath)] {
                let named = MappingModelReader.versionName(path)!
                let equal = versions.filter { MappingModelReader.equality(snapshot, $0.model) != nil }.map(\.name)
                if relative.hasSuffix("Delta10ToDelta11.xcmappingmodel/xcmapping.xml"), named == "Delta 11" {
                    XCTAssertEqual(equal, [], relative)
                    let delta11 = versions.first { $0.name == "Delta 11" }!.model
                    XCTAssertEqual(MappingModelReader.entityDifferences(snapshot, delta11), ["Game.isFavorite added"])
                } else {
                    XCTAssertEqual(equal, [named], "\(relative): the \(path) side")
                }
                sidesChecked += 1
            }
        }
        XCTAssertEqual(sidesChecked, 2 * files.count)
    }

    /// Xcode's compiled mapping model (CoreDataPlus's V2toV3.cdm) records the entity hashes Core Data matches; they
    /// are the hashes of the models the source mapping model embeds.
    func testCompiledMappingHashesAreTheEmbeddedModelsHashes() throws {
        let corpus = try requireCorpus()
        let resources = corpus.appendingPathComponent("alemar11__CoreDataPlus/Tests/Resources/SampleModel")
        let file = MappingModelReader.file(
            at: resources.appendingPathComponent("MappingModels/V2toV3.xcmappingmodel/xcmapping.xml").path,
            displayPath: "V2toV3")
        let compiled = try CompiledModelReader.mapping(
            at: resources.appendingPathComponent("Fixtures/V2toV3.cdm").path, displayPath: "V2toV3.cdm")
        let source = try XCTUnwrap(file.source).versionHashes.entities
        let destination = try XCTUnwrap(file.destination).versionHashes.entities
        var compared = 0
        for mapping in compiled.entityMappings {
            if let side = mapping.source {
                XCTAssertEqual(source[side.entity], side.hash, "source \(side.entity)")
                compared += 1
            }
            if let side = mapping.destination {
                XCTAssertEqual(destination[side.entity], side.hash, "destination \(side.entity)")
                compared += 1
            }
        }
        XCTAssertGreaterThanOrEqual(compared, 8)
    }

    /// A mapping model whose destination path names a deleted version (Store 2.2) but whose embedded models are
    /// the bundle's 2.0 and 2.1 covers that step: its incompatible change is a note naming it.
    func testPathsNamingADeletedVersionDoNotMatterWhenTheEmbeddedModelsMatch() {
        let out = modellint(
            ["check", "--format", "json"], in: fixtures.appendingPathComponent("PathsNameDeletedVersion"))
        XCTAssertEqual(out.exitCode, 0)
        let diagnostics = jsonDiagnostics(out)
        XCTAssertEqual(
            summary(diagnostics),
            [
                "progressive-migration-likely warning ->Store 2.1 -.- @0",
                "attribute-type-incompatible note Store 2.0>Store 2.1 Trip.distance @4",
                "default-value-changed note Store 2.0>Store 2.1 Trip.distance @4",
            ])
        XCTAssertEqual(
            diagnostics[1]["message"] as? String,
            "Trip.distance changed type from String to Double between Store 2.0 and Store 2.1; lightweight migration cannot convert it, and the store will fail to open (covered by the mapping model Store20ToStore22)"
        )
    }

    /// A mapping model made before its destination version was edited: Core Data never uses it, so it is an error
    /// (the step is between shipped Journal 2 and the current Journal 3) and the step's findings are not covered.
    func testAMappingModelWhoseDestinationWasEditedSinceIsStale() {
        let out = modellint(["check", "--format", "json"], in: fixtures.appendingPathComponent("EditedAfterMapping"))
        XCTAssertEqual(out.exitCode, 1)
        let diagnostics = jsonDiagnostics(out)
        XCTAssertEqual(
            summary(diagnostics),
            [
                "attribute-type-incompatible error Journal 2>Journal 3 Entry.mood @4",
                "default-value-changed note Journal 2>Journal 3 Entry.mood @4",
                "mapping-model-stale error ->Journal 3 -.- @0",
            ])
        XCTAssertEqual(diagnostics[2]["file"] as? String, "Journal2ToJournal3.xcmappingmodel/xcmapping.xml")
        XCTAssertEqual(
            diagnostics[2]["message"] as? String,
            "Journal2ToJournal3 records destination hashes that no version of Journal has: Journal 3, which its path names, has changed since (Entry.pinned added). Core Data picks a mapping model by these hashes, so it never uses this one for Journal 2 -> Journal 3, and the custom migration it holds does not run"
        )
    }

    /// An embedded model that is not a readable archive leaves the paths to decide; nothing crashes.
    func testUnreadableEmbeddedModelsFallBackToThePaths() throws {
        let directory = try makeTemporaryDirectory(self)
        let xml = directory.appendingPathComponent("xcmapping.xml")
        let archive = Data("bplist00 not really".utf8).base64EncodedString()
        try Data(
            """
            <database><object type="XDDEVMAPPINGMODEL" id="z102">
            <attribute name="sourcemodelpath" type="string">Near.xcdatamodeld/Near 1.xcdatamodel</attribute>
            <attribute name="sourcemodeldata" type="binary">\(archive)</attribute>
            <attribute name="destinationmodelpath" type="string">Near.xcdatamodeld/Near 2.xcdatamodel</attribute>
            <attribute name="destinationmodeldata" type="binary">!!!</attribute>
            </object></database>
            """.utf8
        ).write(to: xml)
        let file = MappingModelReader.file(at: xml.path, displayPath: "xcmapping.xml")
        XCTAssertNil(file.source)
        XCTAssertNil(file.destination)
        XCTAssertEqual(file.sourcePath, "Near.xcdatamodeld/Near 1.xcdatamodel")
        XCTAssertThrowsError(
            try MappingModelSnapshot.model(archive: Array("bplist00".utf8), displayPath: "x")
        ) { error in
            XCTAssertTrue("\(error)".hasPrefix("x: "), "\(error)")
        }
    }

    /// A mapping model's hashes are kept in the result cache while its file is unchanged (its embedded models take
    /// tens of milliseconds to decode); an entry that is not as written is ignored and rewritten, and a changed
    /// file is read again.
    func testTheResultCacheKeepsAMappingModelsHashesWhileItsFileIsUnchanged() throws {
        let directory = try makeTemporaryDirectory(self)
        try FileManager.default.copyItem(
            at: fixtures.appendingPathComponent("EditedAfterMapping"), to: directory.appendingPathComponent("M"))
        let xml = directory.appendingPathComponent("M/Journal2ToJournal3.xcmappingmodel/xcmapping.xml")
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: xml.path)
        let folder = try makeTemporaryDirectory(self)
        let variables = ["MODELLINT_CACHE_DIR": folder.path]
        func check() -> String {
            modifiedNow(directory.appendingPathComponent("M/Journal.xcdatamodeld"))
            return modellint(["check", "M", "--format", "json"], in: directory, variables: variables).standardOutput
        }
        let uncached = modellint(["check", "M", "--format", "json", "--no-cache"], in: directory).standardOutput
        XCTAssertTrue(uncached.contains("\"ruleId\": \"mapping-model-stale\""), uncached)
        XCTAssertEqual(check(), uncached)
        let entryFolder = folder.appendingPathComponent("mapping-model")
        let entry = try XCTUnwrap(try FileManager.default.contentsOfDirectory(atPath: entryFolder.path).first)
        let entryFile = entryFolder.appendingPathComponent(entry)
        let written = try Data(contentsOf: entryFile)
        XCTAssertEqual(check(), uncached, "read from the cache")
        for hostile in ["", "{", "[1,2]", String(repeating: "[", count: 10_000)] {
            try Data(hostile.utf8).write(to: entryFile)
            XCTAssertEqual(check(), uncached, hostile)
            XCTAssertEqual(try Data(contentsOf: entryFile), written, "rewritten after \(hostile.prefix(10))")
        }
        // An entry as written, for this very file: trusted (the hashes of another destination say another story).
        let doctored = String(decoding: written, as: UTF8.self).replacingOccurrences(
            of: "Journal 3.xcdatamodel", with: "Journal 9.xcdatamodel")
        XCTAssertNotEqual(doctored, String(decoding: written, as: UTF8.self))
        try Data(doctored.utf8).write(to: entryFile)
        XCTAssertNotEqual(check(), uncached)
        // The file touched since: its entry no longer applies.
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: -1800)], ofItemAtPath: xml.path)
        XCTAssertEqual(check(), uncached)
    }

    /// `Objects.uid` reads a UID in place; it must give what decoding the object gives, for every slot.
    func testUIDsReadInPlaceAreTheDecodedOnes() throws {
        func decoded(_ plist: BinaryPropertyList, _ slot: Int) -> Int? {
            if case .uid(let u) = plist.objects[slot] { return u }
            return nil
        }
        // By hand: UIDs one, two, four and eight bytes wide (the decoder keeps the low 31 bits), and three
        // objects that are not UIDs (an integer, a one-letter string, an array of two).
        let objects: [[UInt8]] = [
            [0x80, 0x07], [0x81, 0x01, 0x2C], [0x83, 0x00, 0x01, 0x11, 0x70],
            [0x87, 0xFF, 0x00, 0x00, 0x00, 0x80, 0x00, 0x00, 0x05], [0x10, 0x07], [0x51, 0x61], [0xA2, 0x00, 0x01],
        ]
        let handMade = try BinaryPropertyList(bytes: CompiledModelTests.plist(objects))
        XCTAssertEqual(handMade.objects.indices.map { handMade.objects.uid($0) }, [7, 300, 70000, 5, nil, nil, nil])
        XCTAssertEqual(handMade.objects.indices.map { decoded(handMade, $0) }, [7, 300, 70000, 5, nil, nil, nil])
        XCTAssertNil(handMade.objects.uid(-1))
        XCTAssertNil(handMade.objects.uid(objects.count))

        // Every slot of every embedded model of the fixtures' mapping models (and the corpus's, when present).
        var archives = 0
        var uids = 0
        for (relative, xml) in try mappingModelFiles(in: fixtures) {
            for name in ["sourcemodeldata", "destinationmodeldata"] {
                guard let archive = MappingModelSnapshot.embeddedArchive(name, in: xml) else { continue }
                let plist = try BinaryPropertyList(bytes: archive)
                archives += 1
                for slot in plist.objects.indices {
                    let expected = decoded(plist, slot)
                    if expected != nil { uids += 1 }
                    XCTAssertEqual(plist.objects.uid(slot), expected, "\(relative) \(name) slot \(slot)")
                }
            }
        }
        XCTAssertGreaterThanOrEqual(archives, 4)
        XCTAssertGreaterThan(uids, 100)
    }
}
