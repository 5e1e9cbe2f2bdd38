import Foundation
import XCTest
import ModelLintCommands
import ModelLintGather

/// What the team declares about how its app migrates: the oldest version whose stores it still
/// migrates; versions before it are neither compared nor reported.
final class MigrationFactsTests: XCTestCase {
    func testVersionsBeforeTheOldestMigratedOneAreNotCompared() throws {
        let directory = try makeTemporaryDirectory(self)
        let first = "<entity name=\"A\"><attribute name=\"legacy\" optional=\"YES\" attributeType=\"String\"/></entity>"
        let second = "<entity name=\"A\"><attribute name=\"title\" optional=\"YES\" attributeType=\"Binary\"/></entity>"
        let third =
            second + "<entity name=\"B\"><attribute name=\"b\" optional=\"YES\" attributeType=\"String\"/></entity>"
        try writeBundle(
            in: directory, versions: [("Near 1", first), ("Near 2", second), ("Near 3", third)], current: "Near 3")
        // The app switched to a new store file in Near 2: stores of Near 1 are abandoned, never migrated.
        let all = summary(
            jsonDiagnostics(modellint(["check", "--format", "json", "--notes"], in: directory)), lines: false)
        XCTAssertTrue(all.contains { $0.contains("Near 1>") }, "\(all)")
        try Data(#"{ "bundles": { "Near.xcdatamodeld": { "oldestMigratedVersion": "Near 2" } } }"#.utf8)
            .write(to: directory.appendingPathComponent(".modellint.json"))
        let declared = modellint(["check", "--format", "json", "--notes"], in: directory)
        XCTAssertEqual(declared.exitCode, 0, declared.standardError)
        XCTAssertEqual(summary(jsonDiagnostics(declared), lines: false).filter { $0.contains("Near 1") }, [])
        // A name the bundle does not have is a configuration error, never a silent no-op.
        try Data(#"{ "bundles": { "Near.xcdatamodeld": { "oldestMigratedVersion": "Near 9" } } }"#.utf8)
            .write(to: directory.appendingPathComponent(".modellint.json"))
        let typo = modellint(["check"], in: directory)
        XCTAssertEqual(typo.exitCode, 2)
        XCTAssertTrue(
            typo.standardError.contains(
                "bundles.Near.xcdatamodeld.oldestMigratedVersion: Near 9 is not a version of the bundle (versions: Near 1, Near 2, Near 3)"
            ), typo.standardError)
    }
}
