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

/// Lock format 2 speaks Core Data (cli.md "Lock file"); format 1 is still verified and upgraded only when clean.
final class LockFormatTests: XCTestCase {
    private let fixtures = repositoryRoot.appendingPathComponent("Fixtures")

    /// The three bundles `Fixtures/Locks/format1.lock` was written for, beside a copy of it.
    private func format1Repository() throws -> URL {
        let directory = try makeTemporaryDirectory(self)
        for name in ["Near.xcdatamodeld", "Changes/HierarchyMerge.xcdatamodeld", "Hashes/Coverage.xcdatamodeld"] {
            try FileManager.default.copyItem(
                at: fixtures.appendingPathComponent(name),
                to: directory.appendingPathComponent((name as NSString).lastPathComponent))
        }
        try FileManager.default.copyItem(
            at: fixtures.appendingPathComponent("Locks/format1.lock"),
            to: directory.appendingPathComponent("modellint.lock"))
        return directory
    }

    private func ruleIds(_ out: CommandOutput) throws -> [String] {
        let json = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(out.standardOutput.utf8)) as? [String: Any], out.standardError)
        return (json["diagnostics"] as? [[String: Any]] ?? []).compactMap { $0["ruleId"] as? String }.filter {
            $0.hasPrefix("shipped")
        }
    }

    func testFormatTwoRecordsCoreDataHashes() throws {
        let directory = try makeTemporaryDirectory(self)
        try FileManager.default.copyItem(
            at: fixtures.appendingPathComponent("Hashes/Coverage.xcdatamodeld"),
            to: directory.appendingPathComponent("Coverage.xcdatamodeld"))
        XCTAssertEqual(modellint(["lock"], in: directory).exitCode, 0)
        let json = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(contentsOf: directory.appendingPathComponent("modellint.lock")))
                as? [String: Any])
        XCTAssertEqual(json["format"] as? Int, 2)
        let version = try XCTUnwrap(
            ((json["bundles"] as? [String: Any])?["Coverage.xcdatamodeld"] as? [String: Any])?["versions"]
                as? [String: [String: Any]])["Coverage"]
        // The same values Scripts/reference-hashes.py gives (CoreDataHashTests).
        XCTAssertEqual(version?["checksum"] as? String, "jX+XrQyz/cBwk19SyJ5bvQQQ31icGekJwLjPdchFRYo=")
        XCTAssertEqual(
            (version?["entities"] as? [String: String])?["Item"], "g3DaznWChnLsENk1wqjw1bdAMD8HWrfDMiOuPzBWWXs=")
        XCTAssertTrue((version?["content"] as? String)?.hasPrefix("sha256:") == true)
    }

    /// The format-1 file written by the previous release verifies clean against the unchanged bundles (so the
    /// streamed format-1 digests equal the old ones), finds an edit, and is upgraded only when clean.
    func testFormatOneIsVerifiedThenUpgraded() throws {
        let directory = try format1Repository()
        let clean = modellint(["check", "--format", "json"], in: directory)
        XCTAssertEqual(try ruleIds(clean), [], clean.standardOutput)
        let upgraded = modellint(["lock"], in: directory)
        XCTAssertEqual(upgraded.exitCode, 0, upgraded.standardError)
        XCTAssertTrue(
            upgraded.standardOutput.hasSuffix(
                "modellint.lock: 0 versions added, 6 already locked, 6 upgraded from format 1\n"),
            upgraded.standardOutput)
        let lock = try LockFile.load(path: directory.appendingPathComponent("modellint.lock").path)
        XCTAssertEqual(lock.readFormat, 2)
        XCTAssertEqual(lock.bundles.values.reduce(0) { $0 + $1.count }, 6)
        XCTAssertTrue(lock.bundles.values.allSatisfy { $0.values.allSatisfy { !$0.isLegacy } })
    }

    func testAnEditMadeSinceAFormatOneLockIsFoundAndNeverBlessed() throws {
        let directory = try format1Repository()
        let contents = directory.appendingPathComponent("Near.xcdatamodeld/Near 19.xcdatamodel/contents")
        try Data(
            try String(contentsOf: contents, encoding: .utf8).replacingOccurrences(
                of: "name=\"latitude\"", with: "name=\"lat\""
            ).utf8
        ).write(to: contents)
        XCTAssertEqual(
            try ruleIds(modellint(["check", "--format", "json"], in: directory)), ["shipped-version-edited"])
        let before = try Data(contentsOf: directory.appendingPathComponent("modellint.lock"))
        let refused = modellint(["lock"], in: directory)
        XCTAssertEqual(refused.exitCode, 2)
        XCTAssertTrue(
            refused.standardError.contains(
                "cannot be upgraded to format 2, because a version no longer matches what it recorded: Near.xcdatamodeld Near 19 was edited since it was locked (Place)"
            ), refused.standardError)
        XCTAssertEqual(
            try Data(contentsOf: directory.appendingPathComponent("modellint.lock")), before, "nothing written")
        let forced = modellint(["lock", "--force"], in: directory)
        XCTAssertEqual(forced.exitCode, 0, forced.standardError)
        XCTAssertEqual(try ruleIds(modellint(["check", "--format", "json"], in: directory)), [])
    }

    /// An edit Core Data cannot see is semantics, not schema; Core Data's view decides which.
    func testFormatTwoJudgesByCoreDataHashes() throws {
        let directory = try makeTemporaryDirectory(self)
        try FileManager.default.copyItem(
            at: fixtures.appendingPathComponent("Near.xcdatamodeld"),
            to: directory.appendingPathComponent("Near.xcdatamodeld"))
        XCTAssertEqual(modellint(["lock"], in: directory).exitCode, 0)
        let contents = directory.appendingPathComponent("Near.xcdatamodeld/Near 20.xcdatamodel/contents")
        let original = try String(contentsOf: contents, encoding: .utf8)
        // A delete rule: no hash changes.
        try Data(original.replacingOccurrences(of: "deletionRule=\"Nullify\"", with: "deletionRule=\"Cascade\"").utf8)
            .write(to: contents)
        XCTAssertEqual(
            try ruleIds(modellint(["check", "--format", "json"], in: directory)), ["shipped-version-semantics-changed"])
        // A property made required: the hash changes, and the entity is named.
        try Data(
            original.replacingOccurrences(
                of: "<attribute name=\"name\" optional=\"YES\" attributeType=\"String\"",
                with: "<attribute name=\"name\" attributeType=\"String\""
            ).utf8
        ).write(to: contents)
        let out = modellint(["check", "--format", "json"], in: directory)
        XCTAssertEqual(try ruleIds(out), ["shipped-version-edited"])
        XCTAssertTrue(out.standardOutput.contains("version hash changed"), out.standardOutput)
    }
}
