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

/// The compiled-model readers: binary property lists and keyed archives on hand-built bytes, and the real
/// `.momd`/`.cdm` files of CoreDataPlus (three sources agree: the source XML, Xcode's VersionInfo.plist and the
/// models read back from each `.mom`).
final class CompiledModelTests: XCTestCase {
    /// A binary property list of these objects (each a marker byte and its payload), the first at the top, with
    /// one-byte offsets and references.
    static func plist(_ objects: [[UInt8]]) -> [UInt8] {
        var bytes = Array("bplist00".utf8)
        var offsets: [UInt8] = []
        for object in objects {
            offsets.append(UInt8(bytes.count))
            bytes += object
        }
        let table = bytes.count
        bytes += offsets
        bytes += [0, 0, 0, 0, 0, 0, 1, 1]
        bytes +=
            [0, 0, 0, 0, 0, 0, 0, UInt8(objects.count)] + [0, 0, 0, 0, 0, 0, 0, 0]
            + [0, 0, 0, 0, 0, 0, 0, UInt8(table)]
        return bytes
    }

    /// A binary property list written by hand: {"a": [1, true], "b": UID 2}, with a one-byte offset table.
    static func handWrittenPlist() -> [UInt8] {
        plist([
            [0xD2, 1, 2, 3, 4],  // 0: dict of 2: keys 1, 2; values 3, 4
            [0x51, UInt8(ascii: "a")],  // 1: "a"
            [0x51, UInt8(ascii: "b")],  // 2: "b"
            [0xA2, 5, 6],  // 3: [5, 6]
            [0x80, 2],  // 4: UID 2
            [0x10, 1],  // 5: 1
            [0x09],  // 6: true
        ])
    }

    func testABinaryPropertyListIsReadIntoAnObjectTable() throws {
        let plist = try BinaryPropertyList(bytes: Self.handWrittenPlist())
        XCTAssertEqual(plist.top, 0)
        XCTAssertEqual(
            Array(plist.objects),
            [
                .dictionary(keys: [1, 2], values: [3, 4]), .string("a"), .string("b"), .array([5, 6]), .uid(2),
                .integer(1), .bool(true),
            ])
        // PropertyListSerialization agrees on what it can represent.
        let foundation = try XCTUnwrap(
            PropertyListSerialization.propertyList(from: Data(Self.handWrittenPlist()), format: nil) as? [String: Any])
        XCTAssertEqual((foundation["a"] as? [Any])?.count, 2)
    }

    /// A dictionary {key: 1} whose one key is written as `keyObject` (a marker byte and its payload).
    static func plist(keyObject: [UInt8]) -> [UInt8] { plist([[0xD1, 1, 2], keyObject, [0x10, 1]]) }

    func testAKeyIsFoundInPlaceAsSwiftComparesStrings() throws {
        let plist = try BinaryPropertyList(bytes: Self.handWrittenPlist())
        XCTAssertEqual(plist.objects.value(forKey: "a", inDictionary: 0), 3)
        XCTAssertEqual(plist.objects.value(forKey: "b", inDictionary: 0), 4)
        XCTAssertNil(plist.objects.value(forKey: "c", inDictionary: 0))
        XCTAssertNil(plist.objects.value(forKey: "", inDictionary: 0))
        XCTAssertNil(plist.objects.value(forKey: "a", inDictionary: 3), "an array has no keys")
        XCTAssertNil(plist.objects.value(forKey: "a", inDictionary: 99), "no such slot")
        XCTAssertTrue(plist.objects.isString(1, equalTo: "a"))
        XCTAssertFalse(plist.objects.isString(1, equalTo: "ab"))
        XCTAssertFalse(plist.objects.isString(5, equalTo: "1"), "an integer is not its digits")
        // A Kelvin sign is a K to Swift, whether the file writes it as UTF-8 in a one-byte string (as no writer
        // does) or as UTF-16; a K written as UTF-16 is a K.
        let kelvinUTF8 = try BinaryPropertyList(bytes: Self.plist(keyObject: [0x53, 0xE2, 0x84, 0xAA]))
        let kelvinUTF16 = try BinaryPropertyList(bytes: Self.plist(keyObject: [0x61, 0x21, 0x2A]))
        let plainUTF16 = try BinaryPropertyList(bytes: Self.plist(keyObject: [0x61, 0x00, 0x4B]))
        for table in [kelvinUTF8, kelvinUTF16, plainUTF16] {
            XCTAssertEqual(table.objects[1], .string("K"))
            XCTAssertEqual(table.objects.value(forKey: "K", inDictionary: 0), 2)
            XCTAssertEqual(table.objects.value(forKey: "\u{212A}", inDictionary: 0), 2)
            XCTAssertNil(table.objects.value(forKey: "k", inDictionary: 0))
            XCTAssertTrue(table.objects.isString(1, equalTo: "K"))
        }
        let plain = try BinaryPropertyList(bytes: Self.plist(keyObject: [0x51, UInt8(ascii: "K")]))
        XCTAssertEqual(plain.objects.value(forKey: "\u{212A}", inDictionary: 0), 2)
        XCTAssertNil(plain.objects.value(forKey: "KK", inDictionary: 0))
    }

    func testTheQuickCheckNeverPassesWhatTheFullCheckRefuses() {
        // Every byte of two files set to values that make markers, lengths and references go wrong; each object
        // offset and end of the object area checked both ways, with one- and two-byte references.
        var checked = 0
        for good in [Self.handWrittenPlist(), Self.plist(keyObject: [0x61, 0x21, 0x2A])] {
            for index in good.indices {
                for value in [0x00, 0x01, 0x0F, 0x10, 0x13, 0x14, 0x1F, 0x23, 0x5F, 0x6F, 0x80, 0xAF, 0xD9, 0xDF, 0xFF]
                    as [UInt8]
                {
                    var bytes = good
                    bytes[index] = value
                    for end in 9...(bytes.count - 32) {
                        for refSize in [1, 2] {
                            XCTAssertEqual(
                                BinaryPropertyList.quickCheckMisses(
                                    in: bytes, offsets: Array(8..<end), end: end, refSize: refSize, count: 7), 0,
                                "byte \(index) = \(value), end \(end), references of \(refSize)")
                            checked += end - 8
                        }
                    }
                }
            }
        }
        XCTAssertGreaterThan(checked, 10_000)
    }

    func testAnObjectNeverReadIsStillCheckedWhenTheFileIsOpened() {
        // The integer the dictionary's value names claims 16 bytes the file does not have.
        var bytes = Self.plist(keyObject: [0x51, UInt8(ascii: "K")])
        bytes[8 + 3 + 2] = 0x14
        XCTAssertThrowsError(try BinaryPropertyList(bytes: bytes)) { error in
            XCTAssertEqual("\(error)", "not a binary property list: object at 13 runs past the object area")
        }
    }

    func testEveryTruncationAndCorruptionIsAnErrorNeverATrap() {
        let good = Self.handWrittenPlist()
        var failures = 0
        for length in 0..<good.count {
            if (try? BinaryPropertyList(bytes: Array(good.prefix(length)))) == nil { failures += 1 }
        }
        XCTAssertEqual(failures, good.count, "every proper prefix is refused")
        // Every single byte set to every value: read or refused, never a crash.
        var read = 0
        for index in good.indices {
            for value in [0x00, 0x0F, 0x5F, 0x6F, 0xAF, 0xDF, 0xFF] as [UInt8] {
                var bytes = good
                bytes[index] = value
                if (try? BinaryPropertyList(bytes: bytes)) != nil { read += 1 }
            }
        }
        XCTAssertGreaterThan(read, 0)
        // A container that is its own member is just an index: no recursion, no hang.
        var cyclic = good
        cyclic[8 + 5 + 2 + 2 + 1] = 3  // [5, 6] becomes [3, 6]
        XCTAssertEqual(try BinaryPropertyList(bytes: cyclic).objects[3], .array([3, 6]))
    }

    private let resources = "alemar11__CoreDataPlus/Tests/Resources"

    func testEveryCompiledVersionRecomputesXcodesHashes() throws {
        let root = try requireCorpus().appendingPathComponent(resources)
        var compared = 0
        for (bundle, momd) in [
            ("SampleModel/SampleModel.xcdatamodeld", "SampleModel/Fixtures/SampleModel.momd"),
            ("SampleModel3/SampleModel3.xcdatamodeld", "SampleModel3/Fixtures/SampleModel3.momd"),
        ] {
            let compiled = try CompiledModelReader.read(momd: root.appendingPathComponent(momd).path, displayPath: momd)
            let source = BundleLoader.load(bundleURL: root.appendingPathComponent(bundle), displayPath: bundle)
            XCTAssertEqual(compiled.versions.map(\.name).sorted(), source.versions.map(\.name).sorted())
            XCTAssertEqual(compiled.currentVersion, source.declaredCurrentVersion)
            for version in compiled.versions {
                let fromMom = try XCTUnwrap(version.model, version.problem ?? version.name).versionHashes
                let recorded = try XCTUnwrap(version.recordedHashes)
                let fromXML = try XCTUnwrap(source.versions.first { $0.name == version.name }?.model).versionHashes
                XCTAssertEqual(fromMom.entities, recorded, "\(version.name): .mom vs VersionInfo.plist")
                XCTAssertEqual(fromXML.entities, recorded, "\(version.name): XML vs VersionInfo.plist")
                if let checksum = version.recordedChecksum { XCTAssertEqual(fromMom.versionChecksum, checksum) }
                compared += recorded.count
            }
        }
        XCTAssertEqual(compared, 18, "the 18 entity hashes of the two CoreDataPlus models")
    }

    func testTheCompiledMappingModelCarriesTheHashesOfItsVersions() throws {
        let root = try requireCorpus().appendingPathComponent(resources)
        let mapping = try CompiledModelReader.mapping(
            at: root.appendingPathComponent("SampleModel/Fixtures/V2toV3.cdm").path, displayPath: "V2toV3.cdm")
        let source = BundleLoader.load(
            bundleURL: root.appendingPathComponent("SampleModel/SampleModel.xcdatamodeld"), displayPath: "b")
        let v2 = try XCTUnwrap(source.versions.first { $0.name == "SampleModel2" }?.model).versionHashes
        let v3 = try XCTUnwrap(source.versions.first { $0.name == "SampleModel3" }?.model).versionHashes
        XCTAssertEqual(mapping.entityMappings.count, 5)
        for m in mapping.entityMappings {
            if let s = m.source { XCTAssertEqual(v2.entities[s.entity], s.hash, m.name) }
            if let d = m.destination { XCTAssertEqual(v3.entities[d.entity], d.hash, m.name) }
        }
        XCTAssertEqual(
            mapping.entityMappings.filter { $0.source != nil && $0.destination != nil }.map(\.name),
            ["CarToCar", "LuxuryCarToLuxuryCar", "PersonToPerson", "SportCarToSportCar"])
        XCTAssertEqual(
            mapping.entityMappings.last.map { "\($0.name) \($0.source == nil) \($0.destination?.entity ?? "")" },
            "Maker true Maker", "an added entity has no source")
    }

    func testRenamingIdentifiersSurviveIntoTheCompiledModel() throws {
        let root = try requireCorpus().appendingPathComponent(resources)
        let compiled = try CompiledModelReader.read(
            momd: root.appendingPathComponent("SampleModel/Fixtures/SampleModel.momd").path, displayPath: "m")
        let v2 = try XCTUnwrap(compiled.versions.first { $0.name == "SampleModel2" }?.model)
        // SampleModel2's LuxuryCar was renamed from ExpensiveSportCar (its Renaming ID in Xcode).
        XCTAssertEqual(v2.entities.first { $0.name == "LuxuryCar" }?.elementID, "ExpensiveSportCar")
    }
}

/// `verify-build` on copies of CoreDataPlus's SampleModel (source bundle, compiled .momd, V2toV3.cdm), each edited
/// the way a real project goes wrong.
final class VerifyBuildTests: XCTestCase {
    /// A copy laid out as in CoreDataPlus: SampleModel.xcdatamodeld beside Fixtures/ (SampleModel.momd, V2toV3.cdm).
    private func copy() throws -> URL {
        let resources = try requireCorpus().appendingPathComponent("alemar11__CoreDataPlus/Tests/Resources/SampleModel")
        let directory = try makeTemporaryDirectory(self)
        for item in ["SampleModel.xcdatamodeld", "Fixtures"] {
            try FileManager.default.copyItem(
                at: resources.appendingPathComponent(item), to: directory.appendingPathComponent(item))
        }
        _ = try shell("chmod -R u+w .", in: directory)
        return directory
    }

    private func verify(_ directory: URL, _ extra: [String] = []) -> (CommandOutput, [String]) {
        let out = modellint(["verify-build", "Fixtures/SampleModel.momd", "--format", "json"] + extra, in: directory)
        let json = (try? JSONSerialization.jsonObject(with: Data(out.standardOutput.utf8))) as? [String: Any]
        let found = (json?["diagnostics"] as? [[String: Any]] ?? []).map { d in
            "\(d["ruleId"]!) \(d["severity"]!) \(d["version"] as? String ?? "-") \(d["entity"] as? String ?? "-").\(d["property"] as? String ?? "-") \(d["file"]!)"
        }
        return (out, found)
    }

    func testTheRealBuildMatchesItsSource() throws {
        let (out, found) = verify(try copy())
        XCTAssertEqual(out.exitCode, 0, out.standardError)
        XCTAssertEqual(found, [])
    }

    func testAnEditAfterTheBuildMakesTheVersionAndTheMappingModelOutOfDate() throws {
        let directory = try copy()
        try replaceInFile(
            directory.appendingPathComponent("SampleModel.xcdatamodeld/SampleModel3.xcdatamodel/contents"),
            "<entity name=\"Car\" representedClassName=\"Car\" syncable=\"YES\">",
            with:
                "<entity name=\"Car\" representedClassName=\"Car\" syncable=\"YES\">\n        <attribute name=\"colour\" optional=\"YES\" attributeType=\"String\"/>"
        )
        let (out, found) = verify(directory)
        XCTAssertEqual(out.exitCode, 1)
        XCTAssertEqual(
            found,
            [
                "mapping-model-unmatched error - -.- Fixtures/V2toV3.cdm",
                "compiled-version-out-of-date error SampleModel3 -.- Fixtures/SampleModel.momd/SampleModel3.mom",
            ], "a mapping model is about no one version: first")
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(out.standardOutput.utf8)) as? [String: Any])
        let messages = (json["diagnostics"] as? [[String: Any]] ?? []).map { $0["message"] as? String ?? "" }
        XCTAssertTrue(
            messages[1].hasPrefix(
                "SampleModel3 in Fixtures/SampleModel.momd was compiled from other model files than SampleModel.xcdatamodeld/SampleModel3.xcdatamodel/contents: its entity hashes differ for Car ("
            ), messages[1])
        // Car's subentities include its hash: they are out of date too; Person and Maker are not.
        XCTAssertTrue(messages[1].contains("LuxuryCar ("), messages[1])
        XCTAssertTrue(messages[1].contains("SportCar ("), messages[1])
        XCTAssertFalse(messages[1].contains("Person"), messages[1])
        XCTAssertEqual(
            messages[0],
            "the compiled mapping model V2toV3's destination entity hashes match no version of the bundle: Core Data picks mapping models by hash, so it is never used and the migration it was written for fails or is inferred without it"
        )
    }

    /// Core Data loads a store's source model from its .mom: VersionInfo.plist still naming a deleted one, or a
    /// .mom replaced by another version's, is not a build that migrates.
    func testEveryMomIsReadNotOnlyVersionInfo() throws {
        let directory = try copy()
        let momd = directory.appendingPathComponent("Fixtures/SampleModel.momd")
        try FileManager.default.removeItem(at: momd.appendingPathComponent("SampleModel2.mom"))
        let (deleted, foundDeleted) = verify(directory)
        XCTAssertEqual(deleted.exitCode, 1)
        XCTAssertEqual(
            foundDeleted,
            [
                "compiled-version-missing error SampleModel2 -.- SampleModel.xcdatamodeld/SampleModel2.xcdatamodel/contents"
            ])
        XCTAssertTrue(
            deleted.standardOutput.contains(
                "Fixtures/SampleModel.momd lists SampleModel2 in VersionInfo.plist but holds no SampleModel2.mom: stores written by SampleModel2 cannot be migrated (Core Data error 134130, no model for the source store)"
            ), deleted.standardOutput)

        // SampleModel's .mom copied over SampleModel2's: both the record and the source disagree with it.
        try FileManager.default.copyItem(
            at: momd.appendingPathComponent("SampleModel.mom"), to: momd.appendingPathComponent("SampleModel2.mom"))
        let (swapped, foundSwapped) = verify(directory)
        XCTAssertEqual(swapped.exitCode, 1)
        XCTAssertEqual(
            foundSwapped,
            [
                "compiled-version-out-of-date error SampleModel2 -.- Fixtures/SampleModel.momd/SampleModel2.mom",
                "compiled-version-out-of-date error SampleModel2 -.- Fixtures/SampleModel.momd/SampleModel2.mom",
            ])
        let messages = jsonDiagnostics(swapped).map { "\($0["message"]!)" }.sorted()
        XCTAssertTrue(
            messages[0].hasPrefix(
                "Fixtures/SampleModel.momd/VersionInfo.plist records other hashes for SampleModel2 than its .mom has: Car ("
            ), messages[0])
        XCTAssertTrue(
            messages[1].hasPrefix(
                "SampleModel2 in Fixtures/SampleModel.momd was compiled from other model files than SampleModel.xcdatamodeld/SampleModel2.xcdatamodel/contents (it holds SampleModel's model): its entity hashes differ for Car ("
            ), messages[1])
        let text = modellint(["verify-build", "Fixtures/SampleModel.momd"], in: directory).standardOutput
        XCTAssertTrue(
            text.hasPrefix(
                """
                Fixtures/SampleModel.momd: a compiled model of SampleModel.xcdatamodeld, current version SampleModel
                  SampleModel.mom: the hashes of SampleModel
                  SampleModel2.mom: the hashes of SampleModel, not of SampleModel2
                  SampleModel3.mom: the hashes of SampleModel3
                  V2toV3.cdm: maps SampleModel2 -> SampleModel3

                """), text)
    }

    /// A bare .mom (what an unversioned model compiles to) is read as the one version it holds, named by the
    /// source version with its hashes: every other version is one the app cannot migrate a store from.
    func testABareMomIsTheOneVersionItHolds() throws {
        let resources = try requireCorpus().appendingPathComponent(
            "alemar11__CoreDataPlus/Tests/Resources/SampleModel3")
        let directory = try makeTemporaryDirectory(self)
        try FileManager.default.copyItem(
            at: resources.appendingPathComponent("SampleModel3.xcdatamodeld"),
            to: directory.appendingPathComponent("SampleModel3.xcdatamodeld"))
        try FileManager.default.copyItem(
            at: resources.appendingPathComponent("Fixtures/SampleModel3.momd/SampleModel3_v3.mom"),
            to: directory.appendingPathComponent("SampleModel3.mom"))
        _ = try shell("chmod -R u+w .", in: directory)
        let out = modellint(["verify-build", "SampleModel3.mom", "--format", "json"], in: directory)
        XCTAssertEqual(out.exitCode, 1, out.standardError)
        XCTAssertEqual(
            jsonDiagnostics(out).map { "\($0["ruleId"]!) \($0["version"]!)" },
            [
                "compiled-version-missing SampleModel3", "compiled-version-missing SampleModel3_v2",
                "compiled-current-version-mismatch SampleModel3_v3",
            ])
        XCTAssertEqual(
            jsonDiagnostics(out).map { "\($0["message"]!)" }.last,
            "SampleModel3.mom holds SampleModel3_v3, but the bundle's current version is SampleModel3 (.xccurrentversion): the app opens every store with SampleModel3_v3"
        )
        XCTAssertTrue(
            jsonDiagnostics(out).dropLast().allSatisfy {
                "\($0["message"]!)".contains("is not in SampleModel3.mom: stores written by")
            }, out.standardOutput)
    }

    /// A folder that holds neither a .mom nor VersionInfo.plist is one error, not one per version.
    func testAnEmptyMomdIsOneError() throws {
        let directory = try makeTemporaryDirectory(self)
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("Near.momd"), withIntermediateDirectories: true)
        let out = modellint(
            ["verify-build", "Near.momd", repositoryRoot.appendingPathComponent("Fixtures/Near.xcdatamodeld").path],
            in: directory)
        XCTAssertEqual(out.exitCode, 2)
        XCTAssertEqual(
            out.standardError,
            "modellint: Near.momd is not a compiled model: it holds no .mom file and no VersionInfo.plist\n")
    }

    /// A compiled mapping model committed as `*.cdm_precompiled` (XcodeServer) is read, and says which pair it maps.
    func testAPrecompiledMappingModelCopyIsReadAndNamesItsPair() throws {
        let repository = try requireCorpus().appendingPathComponent("richardpiazza__XcodeServer")
        let resources = "Sources/XcodeServerCoreData/Resources"
        let out = modellint(
            ["verify-build", "\(resources)/XcodeServer.momd_precompiled", "\(resources)/XcodeServer.xcdatamodeld"],
            in: repository)
        XCTAssertEqual(out.exitCode, 0, out.standardError)
        XCTAssertEqual(
            out.standardOutput,
            """
            \(resources)/XcodeServer.momd_precompiled: a compiled model of \(resources)/XcodeServer.xcdatamodeld, current version XcodeServer1.1.0
              XcodeServer.mom: the hashes of XcodeServer
              XcodeServer1.1.0.mom: the hashes of XcodeServer1.1.0
              MappingModel_1.0.0_1.1.0.cdm_precompiled: maps XcodeServer -> XcodeServer1.1.0

            0 errors, 0 warnings, 0 notes in 1 bundle (2 versions)

            """)
    }

    func testAPointerMovedAfterTheBuildAndAVersionAddedOrRemoved() throws {
        let directory = try copy()
        let bundle = directory.appendingPathComponent("SampleModel.xcdatamodeld")
        try replaceInFile(
            bundle.appendingPathComponent(".xccurrentversion"), "<string>SampleModel.xcdatamodel</string>",
            with: "<string>SampleModel3.xcdatamodel</string>")
        try FileManager.default.copyItem(
            at: bundle.appendingPathComponent("SampleModel3.xcdatamodel"),
            to: bundle.appendingPathComponent("SampleModel4.xcdatamodel"))
        try FileManager.default.removeItem(at: bundle.appendingPathComponent("SampleModel.xcdatamodel"))
        let (out, found) = verify(directory)
        XCTAssertEqual(out.exitCode, 1)
        XCTAssertEqual(
            found,
            [
                "compiled-version-unknown warning SampleModel -.- Fixtures/SampleModel.momd/SampleModel.mom",
                "compiled-current-version-mismatch error SampleModel -.- Fixtures/SampleModel.momd/VersionInfo.plist",
                "compiled-version-missing error SampleModel4 -.- SampleModel.xcdatamodeld/SampleModel4.xcdatamodel/contents",
            ])
    }

    func testARenamingIdentifierTheBuildDoesNotHave() throws {
        let directory = try copy()
        try replaceInFile(
            directory.appendingPathComponent("SampleModel.xcdatamodeld/SampleModel2.xcdatamodel/contents"),
            "elementID=\"ExpensiveSportCar\"", with: "elementID=\"PricySportCar\"")
        let (out, found) = verify(directory)
        XCTAssertEqual(out.exitCode, 1)
        XCTAssertEqual(
            found,
            [
                "compiled-renaming-id-lost error SampleModel2 LuxuryCar.- SampleModel.xcdatamodeld/SampleModel2.xcdatamodel/contents"
            ],
            "renaming identifiers are not hashed: nothing else changes")
    }

    func testARetiredPropertyStillInTheBuild() throws {
        let directory = try copy()
        try Data(
            #"{"bundles": {"SampleModel.xcdatamodeld": {"retired": [{"entity": "Person", "property": "firstName"}]}}}"#
                .utf8
        )
        .write(to: directory.appendingPathComponent(".modellint.json"))
        let (out, found) = verify(directory)
        XCTAssertEqual(out.exitCode, 1)
        XCTAssertEqual(
            found,
            ["compiled-retired-present error SampleModel Person.firstName Fixtures/SampleModel.momd/SampleModel.mom"])
    }

    func testTheBundleIsFoundFromTheMomdUpwardAndADamagedArchiveIsNamed() throws {
        let directory = try copy()
        let momd = directory.appendingPathComponent("Fixtures/SampleModel.momd")
        let upward = modellint(["verify-build", momd.path], in: FileManager.default.temporaryDirectory)
        XCTAssertEqual(upward.exitCode, 0, upward.standardError)
        XCTAssertTrue(
            upward.standardOutput.hasSuffix("0 errors, 0 warnings, 0 notes in 1 bundle (3 versions)\n"),
            upward.standardOutput)
        let mom = momd.appendingPathComponent("SampleModel2.mom")
        let bytes = try Data(contentsOf: mom)
        try bytes.prefix(bytes.count / 2).write(to: mom)
        let damaged = modellint(["verify-build", "Fixtures/SampleModel.momd"], in: directory)
        XCTAssertEqual(damaged.exitCode, 2)
        XCTAssertEqual(
            damaged.standardError,
            "modellint: Fixtures/SampleModel.momd/SampleModel2.mom: not a binary property list: bad trailer sizes\n")
    }
}

/// `modellint hashes`: the values Xcode wrote into VersionInfo.plist, printed as Core Data's files show them.
final class HashesCommandTests: XCTestCase {
    func testHashesEqualXcodesRecordInBase64AndHex() throws {
        let resources = try requireCorpus().appendingPathComponent(
            "alemar11__CoreDataPlus/Tests/Resources/SampleModel3")
        let info = try XCTUnwrap(
            PropertyListSerialization.propertyList(
                from: Data(
                    contentsOf: resources.appendingPathComponent("Fixtures/SampleModel3.momd/VersionInfo.plist")),
                format: nil) as? [String: Any])
        let recorded = try XCTUnwrap(info["NSManagedObjectModel_VersionHashes"] as? [String: [String: Data]])
        let checksums = try XCTUnwrap(info["NSManagedObjectModel_VersionChecksums"] as? [String: String])
        for hex in [false, true] {
            let out = modellint(
                ["hashes", "SampleModel3.xcdatamodeld", "--format", "json"] + (hex ? ["--hex"] : []), in: resources)
            XCTAssertEqual(out.exitCode, 0, out.standardError)
            let json = try XCTUnwrap(
                JSONSerialization.jsonObject(with: Data(out.standardOutput.utf8)) as? [String: Any])
            XCTAssertEqual(json["encoding"] as? String, hex ? "hex" : "base64")
            let versions = try XCTUnwrap(json["versions"] as? [[String: Any]])
            XCTAssertEqual(
                versions.map { $0["name"] as? String }, ["SampleModel3", "SampleModel3_v2", "SampleModel3_v3"])
            func encode(_ data: Data) -> String {
                hex ? data.map { String(format: "%02x", $0) }.joined() : data.base64EncodedString()
            }
            for version in versions {
                let name = try XCTUnwrap(version["name"] as? String)
                XCTAssertEqual(
                    version["entities"] as? [String: String], try XCTUnwrap(recorded[name]).mapValues(encode), name)
                XCTAssertEqual(
                    version["versionChecksum"] as? String,
                    encode(try XCTUnwrap(Data(base64Encoded: try XCTUnwrap(checksums[name])))), name)
            }
        }
        let one = modellint(["hashes", "SampleModel3.xcdatamodeld", "SampleModel3_v2"], in: resources)
        XCTAssertEqual(
            one.standardOutput.components(separatedBy: "\n").filter { $0.hasPrefix("  Pet ") }.map {
                $0.split(separator: " ").last.map(String.init)
            },
            [try XCTUnwrap(recorded["SampleModel3_v2"]?["Pet"]).base64EncodedString()])
        let unknown = modellint(["hashes", "SampleModel3.xcdatamodeld", "SampleModel9"], in: resources)
        XCTAssertEqual(unknown.exitCode, 2)
        XCTAssertEqual(
            unknown.standardError,
            "modellint: SampleModel3.xcdatamodeld has no version named 'SampleModel9' (versions: SampleModel3, SampleModel3_v2, SampleModel3_v3)\n"
        )
    }

    /// Without the corpus: the hand-made fixture's checksum, worked out independently (CoreDataHashTests' values,
    /// from Scripts/reference-hashes.py).
    func testTheHandMadeFixturesChecksumIsPrinted() {
        let out = modellint(["hashes", "Fixtures/Hashes/Coverage.xcdatamodeld"], in: repositoryRoot)
        XCTAssertEqual(out.exitCode, 0)
        let rows = out.standardOutput.components(separatedBy: "\n").filter { $0.hasPrefix("  ") }.map {
            $0.split(separator: " ").map(String.init)
        }
        XCTAssertEqual(
            rows.map { $0.first ?? "" },
            ["versionChecksum", "NSStoreModelVersionHashesDigest", "Base", "Item", "Owner", "Pet"])
        XCTAssertEqual(rows.first?.last, "jX+XrQyz/cBwk19SyJ5bvQQQ31icGekJwLjPdchFRYo=")
        XCTAssertEqual(rows.last?.last, "aCQOxVxSvanfiYArzG4PM6WNxjTWPncfY5kBf1wBp68=")
    }
}
