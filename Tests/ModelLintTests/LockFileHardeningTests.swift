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

/// The lock file under concurrency, with a wrong shape, with keys spelled another way.
final class LockFileHardeningTests: XCTestCase {
    func testTenConcurrentLockRunsKeepEveryRecord() throws {
        let directory = try makeTemporaryDirectory(self)
        for i in 0..<10 {
            try writeBundle(
                in: directory, name: "B\(i)", versions: [("B\(i) 1", "<entity name=\"A\"/>")], current: "B\(i) 1")
        }
        let codes = Locked([Int32](repeating: -1, count: 10))
        DispatchQueue.concurrentPerform(iterations: 10) { i in
            let code = modellint(["lock", "B\(i).xcdatamodeld"], in: directory).exitCode
            codes.withLock { $0[i] = code }
        }
        XCTAssertEqual(codes.withLock { $0 }, Array(repeating: 0, count: 10))
        let lock = try LockFile.load(path: directory.appendingPathComponent("modellint.lock").path)
        XCTAssertEqual(lock.bundles.keys.map(\.string).sorted(), (0..<10).map { "B\($0).xcdatamodeld" })
    }

    func testAWrongShapeIsAConfigurationError() throws {
        let directory = try makeTemporaryDirectory(self)
        try writeBundle(in: directory, versions: [("Near 1", "<entity name=\"A\"/>")], current: "Near 1")
        for (text, expected) in [
            ("{ \"format\": 1 }", "bundles: missing"),
            (
                "{ \"format\": 1, \"bundles\": \"Near.xcdatamodeld\" }",
                "bundles: must be an object keyed by bundle path"
            ),
            ("{ \"format\": 1, \"bundles\": [] }", "bundles: must be an object keyed by bundle path"),
            (
                "{ \"format\": 1, \"bundles\": { \"Near.xcdatamodeld\": { \"versions\": {} }, \"./Near.xcdatamodeld\": { \"versions\": {} } } }",
                "a second entry for the bundle Near.xcdatamodeld"
            ),
            ("{ \"format\": 1, \"format\": 1, \"bundles\": {} }", "the key \"format\" appears twice"),
        ] {
            try Data(text.utf8).write(to: directory.appendingPathComponent("modellint.lock"))
            let out = modellint(["check"], in: directory)
            XCTAssertEqual(out.exitCode, 2, text)
            XCTAssertTrue(out.standardError.contains(expected), "\(text): \(out.standardError)")
        }
    }

    func testKeysAreNormalisedAndOrphansReported() throws {
        let directory = try makeTemporaryDirectory(self)
        try writeBundle(
            in: directory, versions: [("Near 1", "<entity name=\"A\"/>"), ("Near 2", "<entity name=\"A\"/>")],
            current: "Near 2")
        XCTAssertEqual(modellint(["lock"], in: directory).exitCode, 0)
        let path = directory.appendingPathComponent("modellint.lock")
        // Respelled by hand (./ and a trailing slash), and an entry for a bundle that moved away.
        var text = try String(contentsOf: path, encoding: .utf8).replacingOccurrences(
            of: "\"Near.xcdatamodeld\"", with: "\"./Near.xcdatamodeld/\"")
        text = text.replacingOccurrences(
            of: "\"bundles\": {", with: "\"bundles\": {\n    \"Old/Moved.xcdatamodeld\": { \"versions\": {} },")
        try Data(text.utf8).write(to: path)
        // The respelled entry still protects Near: editing a locked version is found.
        try Data((RuleExample.modelHeader + "\n<entity name=\"B\"/>\n</model>\n").utf8).write(
            to: directory.appendingPathComponent("Near.xcdatamodeld/Near 1.xcdatamodel/contents"))
        let out = modellint(["check", "--format", "json"], in: directory)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(out.standardOutput.utf8)) as? [String: Any])
        let found = (json["diagnostics"] as? [[String: Any]] ?? []).map {
            "\($0["ruleId"]!) \($0["file"]!):\($0["line"] ?? "-")"
        }
        XCTAssertTrue(
            found.contains("shipped-version-edited Near.xcdatamodeld/Near 1.xcdatamodel/contents:3"), "\(found)")
        XCTAssertTrue(found.contains("lock-entry-orphaned modellint.lock:5"), "\(found)")
        let orphan = try XCTUnwrap(
            (json["diagnostics"] as? [[String: Any]])?.first { $0["ruleId"] as? String == "lock-entry-orphaned" })
        XCTAssertEqual(
            orphan["message"] as? String,
            "modellint.lock records Old/Moved.xcdatamodeld (0 versions), which is not a bundle on disk: those versions are protected by nothing; was the bundle moved or renamed?"
        )
        XCTAssertEqual(orphan["severity"] as? String, "warning")
    }

    func testForceRepairsACorruptLockFile() throws {
        let directory = try makeTemporaryDirectory(self)
        try writeBundle(in: directory, versions: [("Near 1", "<entity name=\"A\"/>")], current: "Near 1")
        try Data("{ \"format\": 1, \"bundles\": { broken".utf8).write(
            to: directory.appendingPathComponent("modellint.lock"))
        let plain = modellint(["lock"], in: directory)
        XCTAssertEqual(plain.exitCode, 2)
        XCTAssertTrue(plain.standardError.contains("repair it with modellint lock --force"), plain.standardError)
        let forced = modellint(["lock", "--force"], in: directory)
        XCTAssertEqual(forced.exitCode, 0, forced.standardError)
        XCTAssertTrue(
            forced.standardOutput.hasPrefix("  repaired: modellint.lock could not be read (not valid JSON: "),
            forced.standardOutput)
        XCTAssertEqual(
            try LockFile.load(path: directory.appendingPathComponent("modellint.lock").path).bundles[
                ExactName("Near.xcdatamodeld")]?.keys.map(\.string).sorted(), ["Near 1"])
    }
}
