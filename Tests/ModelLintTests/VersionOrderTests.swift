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
            names, current: "Model_sync_v12", mappingPairs: [], firstAdded: nil)
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
            ["Model_v2", "Model_a_v3", "Model_b_v3"], current: "Model_b_v3", mappingPairs: [], firstAdded: nil)
        guard case .ambiguous(_, let reason)? = clash else { return XCTFail("\(String(describing: clash))") }
        XCTAssertEqual(reason, "two versions of Model_v2…Model_b_v3 share a trailing version number")
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
}
