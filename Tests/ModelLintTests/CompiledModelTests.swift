import Foundation
import XCTest
@testable import ModelLint

/// The compiled-model readers: binary property lists and keyed archives on hand-built bytes, and the real
/// `.momd`/`.cdm` files of CoreDataPlus (three sources agree: the source XML, Xcode's VersionInfo.plist and the
/// models read back from each `.mom`).
final class CompiledModelTests: XCTestCase {
    /// A binary property list written by hand: {"a": [1, true], "b": UID 2}, with a one-byte offset table.
    static func handWrittenPlist() -> [UInt8] {
        var bytes = Array("bplist00".utf8)
        var offsets: [UInt8] = []
        func add(_ object: [UInt8]) { offsets.append(UInt8(bytes.count)); bytes += object }
        add([0xD2, 1, 2, 3, 4])          // 0: dict of 2: keys 1, 2; values 3, 4
        add([0x51, UInt8(ascii: "a")])   // 1: "a"
        add([0x51, UInt8(ascii: "b")])   // 2: "b"
        add([0xA2, 5, 6])                // 3: [5, 6]
        add([0x80, 2])                   // 4: UID 2
        add([0x10, 1])                   // 5: 1
        add([0x09])                      // 6: true
        let table = bytes.count
        bytes += offsets
        bytes += [0, 0, 0, 0, 0, 0, 1, 1]
        bytes += [0, 0, 0, 0, 0, 0, 0, 7] + [0, 0, 0, 0, 0, 0, 0, 0] + [0, 0, 0, 0, 0, 0, 0, UInt8(table)]
        return bytes
    }

    func testABinaryPropertyListIsReadIntoAnObjectTable() throws {
        let plist = try BinaryPropertyList(bytes: Self.handWrittenPlist())
        XCTAssertEqual(plist.top, 0)
        XCTAssertEqual(plist.objects, [.dictionary(keys: [1, 2], values: [3, 4]), .string("a"), .string("b"), .array([5, 6]), .uid(2), .integer(1), .bool(true)])
        // PropertyListSerialization agrees on what it can represent.
        let foundation = try XCTUnwrap(PropertyListSerialization.propertyList(from: Data(Self.handWrittenPlist()), format: nil) as? [String: Any])
        XCTAssertEqual((foundation["a"] as? [Any])?.count, 2)
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
        cyclic[8 + 5 + 2 + 2 + 1] = 3    // [5, 6] becomes [3, 6]
        XCTAssertEqual(try BinaryPropertyList(bytes: cyclic).objects[3], .array([3, 6]))
    }

    private let resources = "alemar11__CoreDataPlus/Tests/Resources"

    func testEveryCompiledVersionRecomputesXcodesHashes() throws {
        let root = try requireCorpus().appendingPathComponent(resources)
        var compared = 0
        for (bundle, momd) in [("SampleModel/SampleModel.xcdatamodeld", "SampleModel/Fixtures/SampleModel.momd"),
                               ("SampleModel3/SampleModel3.xcdatamodeld", "SampleModel3/Fixtures/SampleModel3.momd")] {
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
        let mapping = try CompiledModelReader.mapping(at: root.appendingPathComponent("SampleModel/Fixtures/V2toV3.cdm").path, displayPath: "V2toV3.cdm")
        let source = BundleLoader.load(bundleURL: root.appendingPathComponent("SampleModel/SampleModel.xcdatamodeld"), displayPath: "b")
        let v2 = try XCTUnwrap(source.versions.first { $0.name == "SampleModel2" }?.model).versionHashes
        let v3 = try XCTUnwrap(source.versions.first { $0.name == "SampleModel3" }?.model).versionHashes
        XCTAssertEqual(mapping.entityMappings.count, 5)
        for m in mapping.entityMappings {
            if let s = m.source { XCTAssertEqual(v2.entities[s.entity], s.hash, m.name) }
            if let d = m.destination { XCTAssertEqual(v3.entities[d.entity], d.hash, m.name) }
        }
        XCTAssertEqual(mapping.entityMappings.filter { $0.source != nil && $0.destination != nil }.map(\.name),
                       ["CarToCar", "LuxuryCarToLuxuryCar", "PersonToPerson", "SportCarToSportCar"])
        XCTAssertEqual(mapping.entityMappings.last.map { "\($0.name) \($0.source == nil) \($0.destination?.entity ?? "")" }, "Maker true Maker", "an added entity has no source")
    }

    func testRenamingIdentifiersSurviveIntoTheCompiledModel() throws {
        let root = try requireCorpus().appendingPathComponent(resources)
        let compiled = try CompiledModelReader.read(momd: root.appendingPathComponent("SampleModel/Fixtures/SampleModel.momd").path, displayPath: "m")
        let v2 = try XCTUnwrap(compiled.versions.first { $0.name == "SampleModel2" }?.model)
        // SampleModel2's LuxuryCar was renamed from ExpensiveSportCar (its Renaming ID in Xcode).
        XCTAssertEqual(v2.entities.first { $0.name == "LuxuryCar" }?.elementID, "ExpensiveSportCar")
    }
}
