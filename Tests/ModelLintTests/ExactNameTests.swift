import Foundation
import XCTest
#if canImport(FoundationXML)
    import FoundationXML
#endif
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

/// Names are compared by their bytes.
final class ExactNameTests: XCTestCase {
    private let nfc = "Caf\u{E9} 2", nfd = "Cafe\u{301} 2"

    /// Equal bytes hash alike however the string was made (a literal, decoded bytes, a substring, a long one);
    /// canonically equivalent spellings stay two keys.
    func testNamesHashByTheirBytes() {
        let long = String(repeating: "Version ", count: 8) + nfc
        let spellings = [
            nfc, String(decoding: Array(nfc.utf8), as: UTF8.self), String(("x" + nfc).dropFirst()), nfd, long,
            String(decoding: Array(long.utf8), as: UTF8.self),
        ]
        let names = spellings.map { ExactName($0) }
        XCTAssertEqual(Set(names).count, 3)
        XCTAssertEqual(names[0].hashValue, names[1].hashValue)
        XCTAssertEqual(names[0].hashValue, names[2].hashValue)
        XCTAssertEqual(names[4].hashValue, names[5].hashValue)
        XCTAssertNotEqual(names[0], names[3])
        XCTAssertEqual(Dictionary(names.map { ($0, 1) }, uniquingKeysWith: +)[ExactName(nfd)], 1)
    }

    func testVersionsDifferingOnlyInNormalizationAreTwoAndThePointerResolvesByBytes() throws {
        XCTAssertEqual(nfc, nfd, "Swift calls them equal: the reason for ExactName")
        let directory = try makeTemporaryDirectory(self)
        let bundle = try writeBundle(
            in: directory, versions: [(nfc, "<entity name=\"A\"/>"), (nfd, "<entity name=\"B\"/>")], current: nfd)
        let loaded = BundleLoader.load(bundleURL: bundle, displayPath: "Near.xcdatamodeld")
        XCTAssertEqual(loaded.versions.count, 2)
        XCTAssertTrue(try XCTUnwrap(loaded.currentVersion).name.isExactly(nfd))
        XCTAssertEqual(loaded.currentVersion?.model?.entities.map(\.name), ["B"])
        let found = lint(bundle).filter { $0.ruleId == "version-name-ambiguous" }
        XCTAssertEqual(found.count, 1)
        XCTAssertTrue(
            found.first?.message.hasSuffix(
                "differ only by letter case or Unicode normalization: a disk that does not tell them apart (macOS by default) keeps one of them"
            ) == true)
        // The lock file keeps both.
        XCTAssertEqual(modellint(["lock"], in: directory).exitCode, 0)
        let lock = try LockFile.load(path: directory.appendingPathComponent("modellint.lock").path)
        XCTAssertEqual(lock.bundles[ExactName("Near.xcdatamodeld")]?.count, 2)
    }

    func testBundlesDifferingOnlyInNormalizationAreBothLinted() throws {
        let directory = try makeTemporaryDirectory(self)
        try writeBundle(in: directory, name: "Caf\u{E9}", versions: [("V 1", "<entity name=\"A\"/>")], current: "V 1")
        try writeBundle(in: directory, name: "Cafe\u{301}", versions: [("V 1", "<entity name=\"A\"/>")], current: "V 1")
        XCTAssertEqual(
            modellint(["check"], in: directory).standardOutput,
            "0 errors, 0 warnings, 0 notes in 2 bundles (2 versions)\n")
    }

    func testAVersionFolderNameThatIsNotUTF8IsReported() throws {
        let directory = try makeTemporaryDirectory(self)
        let bundle = try writeBundle(in: directory, versions: [("Near 1", "<entity name=\"A\"/>")], current: "Near 1")
        let bad = bundle.path + "/Near \u{FF}.xcdatamodel"
        // The name as bytes: "Near ", 0xFF, ".xcdatamodel".
        var bytes = Array(bundle.path.utf8) + Array("/Near ".utf8) + [0xFF] + Array(".xcdatamodel".utf8) + [0]
        XCTAssertEqual(
            bytes.withUnsafeMutableBufferPointer {
                $0.withMemoryRebound(to: CChar.self) { mkdir($0.baseAddress!, 0o755) }
            }, 0, bad)
        let found = lint(bundle).filter { $0.ruleId == "version-name-ambiguous" }
        XCTAssertEqual(
            found.map(\.message),
            [
                "the version folder Near \\xFF.xcdatamodel in Near.xcdatamodeld has a name that is not valid UTF-8: it is not read, and no comparison includes it"
            ])
    }
}
