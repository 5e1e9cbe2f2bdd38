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
