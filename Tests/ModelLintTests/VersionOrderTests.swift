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

final class VersionOrderTests: XCTestCase {
    /// The bundle at a revision keeps the work tree's order; a version only the revision has stands where natural
    /// order puts it among the known ones (a deleted Near 19 between Near 18 and Near 20, not after them).
    func testARevisionFollowsTheDecidedOrder() {
        XCTAssertEqual(
            VersionOrder.sorted(["Near 20", "Near 19", "Near 18"], following: ["Near 18", "Near 20"]),
            ["Near 18", "Near 19", "Near 20"])
        XCTAssertEqual(
            VersionOrder.sorted(["b", "Model", "a 2", "a 10"], following: ["a 10", "b", "a 2"]),
            ["a 10", "b", "Model", "a 2"])
        XCTAssertEqual(VersionOrder.sorted(["x 1", "x 2"], following: ["x 2", "x 1", "x 2"]), ["x 2", "x 1"])
        XCTAssertEqual(VersionOrder.sorted(["x 3"], following: []), ["x 3"])
    }

    /// Feature-named versions of one family (`Model_v9`, then `Model_payments_v10`, `Model_sync_v12`) are ordered by
    /// their trailing version number, not by the feature words in between; a bare name stays its own stem.
    func testATrailingVersionNumberOrdersAStemFamily() {
        let names = VersionOrder.sorted([
            "Model", "Model_v2", "Model_v9", "Model_payments_v10", "Model_sync_v12", "Model_attachments_v11", "Legacy",
        ])
        let (order, verdict) = VersionOrderEvidence.order(
            names, current: "Model_sync_v12", mappingPairs: [], history: nil)
        XCTAssertEqual(
            order,
            [
                "Legacy", "Model", "Model_v2", "Model_v9", "Model_payments_v10", "Model_attachments_v11",
                "Model_sync_v12",
            ])
        XCTAssertEqual(
            verdict,
            .inferred(
                stems: ["Legacy", "Model…Model_sync_v12"],
                reasons: [
                    "the trailing version numbers of Model…Model_sync_v12",
                    "the current version Model_sync_v12 comes last",
                ]))
        // Two versions with one number: the family cannot order them, and says so.
        let (_, clash) = VersionOrderEvidence.order(
            ["Model_v2", "Model_a_v3", "Model_b_v3"], current: "Model_b_v3", mappingPairs: [], history: nil)
        guard case .ambiguous(_, let reason)? = clash else { return XCTFail("\(String(describing: clash))") }
        XCTAssertEqual(reason, "two versions of Model_v2…Model_b_v3 share a trailing version number")
    }

    /// What `.xccurrentversion` named over time orders versions without a number among a
    /// numbered family (interleaved, not as blocks); a pointer set back names nothing new; and against stronger
    /// evidence (the current version comes last) it is not taken.
    func testThePointersHistoryOrdersVersionsWithoutANumber() {
        let names = VersionOrder.sorted(["Base", "Model_v2", "Cloud", "Model_sync_v3"])
        let history = VersionOrderEvidence.GitHistory(
            currentVersions: ["Base", "Model_v2", "Cloud", "Base", "Model_sync_v3", "Cloud"])
        let (order, verdict) = VersionOrderEvidence.order(
            names, current: "Model_sync_v3", mappingPairs: [], history: history)
        XCTAssertEqual(order, ["Base", "Model_v2", "Cloud", "Model_sync_v3"])
        XCTAssertEqual(
            verdict,
            .inferred(
                stems: ["Base", "Model_v2", "Cloud", "Model_sync_v3"],
                reasons: [
                    "the trailing version numbers of Model_v2…Model_sync_v3",
                    "the current version Model_sync_v3 comes last",
                    "the versions .xccurrentversion named in git's history",
                ]))
        // Without it, nothing orders Base and Cloud, and the family is one block after them.
        let (natural, doubtful) = VersionOrderEvidence.order(
            names, current: "Model_sync_v3", mappingPairs: [], history: nil)
        XCTAssertEqual(natural, ["Base", "Cloud", "Model_v2", "Model_sync_v3"])
        XCTAssertEqual(
            doubtful,
            .ambiguous(
                stems: ["Base", "Cloud", "Model_v2…Model_sync_v3"],
                reason: "nothing orders some of the stems against each other"))
        // A history naming the current version before another is not taken: the current version comes last.
        let (kept, _) = VersionOrderEvidence.order(
            names, current: "Model_sync_v3", mappingPairs: [],
            history: VersionOrderEvidence.GitHistory(currentVersions: ["Model_sync_v3", "Cloud", "Base"]))
        XCTAssertEqual(kept.last, "Model_sync_v3")
    }

    /// The versions moved into a new folder in one commit: git's first additions and the pointer's history are
    /// read where the bundle lived before the move (the renames the move commit records), and decide the order.
    func testTheHistoryBeforeAMoveOrdersTheVersions() throws {
        let directory = try makeTemporaryDirectory(self)
        try git(["init", "-q", "-b", "main"], in: directory)
        let old = directory.appendingPathComponent("Old/App.xcdatamodeld")
        for (n, version) in ["Base", "Model_v2", "Cloud", "Model_sync_v3"].enumerated() {
            let folder = old.appendingPathComponent("\(version).xcdatamodel")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let attributes = (0...n).map { "<attribute name=\"a\($0)\" optional=\"YES\" attributeType=\"String\"/>" }
            try Data(
                (RuleExample.modelHeader + "\n<entity name=\"Item\">\(attributes.joined())</entity>\n</model>\n").utf8
            ).write(to: folder.appendingPathComponent("contents"))
            try git(["add", "-A"], in: directory)
            try git(["commit", "-q", "-m", "add \(version)"], in: directory)
        }
        try PropertyListSerialization.data(
            fromPropertyList: ["_XCCurrentVersionName": "Model_sync_v3.xcdatamodel"], format: .xml, options: 0
        ).write(to: old.appendingPathComponent(".xccurrentversion"))
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("New/Models"), withIntermediateDirectories: true)
        try git(["add", "-A"], in: directory)
        try git(["commit", "-q", "-m", "current"], in: directory)
        try git(["mv", "Old/App.xcdatamodeld", "New/Models/App.xcdatamodeld"], in: directory)
        try git(["commit", "-q", "-m", "move"], in: directory)

        let out = modellint(["check", "New/Models/App.xcdatamodeld", "--format", "json"], in: directory)
        XCTAssertEqual(out.exitCode, 0, out.standardError)
        XCTAssertEqual(
            jsonDiagnostics(out).map { $0["message"] as? String ?? "" },
            [
                "the versions of App.xcdatamodeld have 3 name stems, ordered Base, then Model_v2, then Cloud, then Model_sync_v3 (the trailing version numbers of Model_v2…Model_sync_v3; the current version Model_sync_v3 comes last; git added the Base versions before the Cloud ones; git added the Base versions before the Model_v2…Model_sync_v3 ones; git added the Cloud and Model_v2…Model_sync_v3 versions in turn)"
            ])
    }

    /// diff's default pair is check's: the version before the current one in the order the evidence decided
    /// (`oldmodel` then `NewModel`, since the current version's stem comes last), not natural order's.
    func testDiffComparesTheStepCheckJudges() {
        let out = modellint(
            ["diff", "Precision/RenamedStems.xcdatamodeld"], in: repositoryRoot.appendingPathComponent("Fixtures"))
        XCTAssertEqual(out.exitCode, 0, out.standardError)
        XCTAssertEqual(
            out.standardOutput.split(separator: "\n").first,
            "oldmodel -> NewModel (Precision/RenamedStems.xcdatamodeld)")
    }

    func testNaturalOrderWithBaseVersionFirst() {
        XCTAssertEqual(
            VersionOrder.sorted(["Model 10", "Model 2", "Model", "Model 9"]),
            ["Model", "Model 2", "Model 9", "Model 10"])
        XCTAssertEqual(VersionOrder.sorted(["X10", "X2"]), ["X2", "X10"])
        XCTAssertEqual(VersionOrder.sorted(["Model10", "Model9"]), ["Model9", "Model10"])
        XCTAssertEqual(
            VersionOrder.sorted(["0.6.10", "0.6.7", "Shared", "0.6"]), ["Shared", "0.6", "0.6.7", "0.6.10"])
    }

    func testMoonlightNamesSortInCreationOrder() {
        let real = [
            "Limelight", "Limelight 0.3.0", "Limelight 0.3.1", "Moonlight v1.0", "Moonlight v1.0-2", "Moonlight v1.1",
            "Moonlight v1.2", "Moonlight v1.9", "Moonlight v1.10",
        ]
        XCTAssertEqual(VersionOrder.sorted(real.reversed()), real)
    }

    func testCaseInsensitiveText() {
        XCTAssertEqual(VersionOrder.sorted(["b 1", "A 2"]), ["A 2", "b 1"])
    }

    func testExplicitOrderWinsAndUnlistedVersionsFollow() {
        let names = [
            "UserDataModel", "MultiassetUserDataModel", "MultiassetUserDataModel2", "MultiassetUserDataModel3",
        ]
        XCTAssertEqual(
            VersionOrder.sorted(names),
            ["MultiassetUserDataModel", "UserDataModel", "MultiassetUserDataModel2", "MultiassetUserDataModel3"],
            "natural order gets Nova wrong: the reason versionOrder exists")
        XCTAssertEqual(
            VersionOrder.sorted(names, explicit: ["UserDataModel", "MultiassetUserDataModel", "Gone"]),
            ["UserDataModel", "MultiassetUserDataModel", "MultiassetUserDataModel2", "MultiassetUserDataModel3"])
    }

    /// A stem is the text before the first digit, trimmed of whitespace and lowercased, as Foundation does it:
    /// the ASCII path and Foundation's agree on every name, ASCII or not.
    func testStemsAreFoundationsTrimmedLowercasedPrefix() {
        let names = [
            "Model 2", "  Model\t 12", "WooCommerce Model 117", "MODEL3", "model", "7", " 8", "\tA\t1", "Ünïcode 2",
            "Model\u{00A0}3", "\u{2003}Model 4", "Straße 5", "Mixed Ä 6", "Tab\t\t7", "x 1 2", "ÆØÅ",
            "Model 1\u{301}", "Model \u{0600}1 2", "Line\r\n3", "Model\u{301} 4",
        ]
        for name in names {
            let expected = name.firstIndex(where: \.isASCIIDigit).map {
                name[..<$0].trimmingCharacters(in: .whitespaces).lowercased()
            }
            XCTAssertEqual(VersionOrderEvidence.rawStem(name), expected, name.debugDescription)
        }
        XCTAssertEqual(VersionOrderEvidence.rawStem("  Model\t 12"), "model")
        XCTAssertEqual(VersionOrderEvidence.rawStem("Model\u{00A0}3"), "model")
        XCTAssertNil(VersionOrderEvidence.rawStem("model"))
    }
}
