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

/// Bad input gets a finding or a usage error naming the file, and the other bundles are still linted.
final class BadInputTests: XCTestCase {
    private func version(_ bundle: URL, _ name: String, contents: Data?) throws {
        let folder = bundle.appendingPathComponent("\(name).xcdatamodel")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        if let contents { try contents.write(to: folder.appendingPathComponent("contents")) }
    }

    func testEveryBrokenVersionIsAFindingAndTheRestIsLinted() throws {
        let directory = try makeTemporaryDirectory(self)
        let bundle = directory.appendingPathComponent("Bad.xcdatamodeld")
        try version(bundle, "Bad 1", contents: Data())
        try version(bundle, "Bad 2", contents: Data("<?xml version=\"1.0\"?>\n<model><entity name=\"A\">".utf8))
        try version(
            bundle, "Bad 3", contents: Data([0x62, 0x70, 0x6C, 0x69, 0x73, 0x74, 0x30, 0x30, 0x00, 0xFF, 0x13]))
        try version(
            bundle, "Bad 4",
            contents: Data([
                0x3C, 0x6D, 0x6F, 0x64, 0x65, 0x6C, 0x3E, 0xC3, 0x28, 0x3C, 0x2F, 0x6D, 0x6F, 0x64, 0x65, 0x6C, 0x3E,
            ]))
        try version(bundle, "Bad 5", contents: nil)
        let contentsDirectory = bundle.appendingPathComponent("Bad 6.xcdatamodel/contents")
        try FileManager.default.createDirectory(at: contentsDirectory, withIntermediateDirectories: true)
        try version(
            bundle, "Bad 7", contents: Data((RuleExample.modelHeader + "<entity name=\"Thing\"/></model>").utf8))
        try Data("this is not a plist".utf8).write(to: bundle.appendingPathComponent(".xccurrentversion"))
        try writeBundle(
            in: directory, name: "Good",
            versions: [
                (
                    "Good",
                    "<entity name=\"Owner\"><relationship name=\"x\" optional=\"YES\" maxCount=\"1\" deletionRule=\"Nullify\" destinationEntity=\"Owner\"/></entity>"
                )
            ])

        let out = modellint(["check", "--format", "json"], in: directory)
        XCTAssertEqual(out.exitCode, 1)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(out.standardOutput.utf8)) as? [String: Any])
        let diagnostics = try XCTUnwrap(json["diagnostics"] as? [[String: Any]])
        let summary = diagnostics.map { "\($0["ruleId"]!) \(($0["file"] as! String))" }
        // In version order: the pointer finding is about Bad 7, the version treated as current, so it comes last.
        XCTAssertEqual(
            summary,
            [
                "malformed-contents Bad.xcdatamodeld/Bad 1.xcdatamodel/contents",
                "malformed-contents Bad.xcdatamodeld/Bad 2.xcdatamodel/contents",
                "malformed-contents Bad.xcdatamodeld/Bad 3.xcdatamodel/contents",
                "malformed-contents Bad.xcdatamodeld/Bad 4.xcdatamodel/contents",
                "missing-contents Bad.xcdatamodeld/Bad 5.xcdatamodel",
                "malformed-contents Bad.xcdatamodeld/Bad 6.xcdatamodel/contents",
                "missing-current-version Bad.xcdatamodeld/.xccurrentversion",
                "missing-inverse Good.xcdatamodeld/Good.xcdatamodel/contents",
            ])
        let messages = diagnostics.compactMap { $0["message"] as? String }
        XCTAssertEqual(
            messages[6],
            ".xccurrentversion cannot be used: it is not a property list; modellint treats Bad 7, the last in version order, as current"
        )
        XCTAssertEqual(
            messages[0],
            "Bad 1 cannot be read as a Core Data model: the file is empty. The version is skipped, and so is every comparison with it"
        )
        XCTAssertEqual(
            messages[5],
            "Bad 6 cannot be read as a Core Data model: it is a directory, not a regular file. The version is skipped, and so is every comparison with it"
        )
        XCTAssertEqual(
            diagnostics[6]["version"] as? String, "Bad 7", "bundle findings name the version treated as current")
        XCTAssertEqual((json["bundles"] as? [[String: Any]])?.count, 2)
    }

    /// A bundle folder whose name is not valid UTF-8 (possible on Linux file systems, not on APFS) cannot be
    /// opened by name: a run that finds nothing else names it, escaped, instead of saying nothing was found.
    func testABundleNamedInInvalidUTF8IsNamed() throws {
        let directory = try makeTemporaryDirectory(self)
        let name = Array("Near".utf8) + [0xFF] + Array(".xcdatamodeld".utf8)
        let created = (Array(directory.path.utf8) + [0x2F] + name + [0]).withUnsafeBufferPointer {
            $0.withMemoryRebound(to: CChar.self) { mkdir($0.baseAddress!, 0o755) }
        }
        try XCTSkipIf(created != 0, "this file system refuses a name that is not valid UTF-8")
        let out = modellint(["check"], in: directory)
        XCTAssertEqual(out.exitCode, 2)
        XCTAssertEqual(
            out.standardError,
            "modellint: no .xcdatamodeld bundles or SwiftData schemas found in the current directory; found \(directory.path)/Near\\xFF.xcdatamodeld, whose name is not valid UTF-8 (rename the folder: modellint reads bundles by their names)\n"
        )
    }

    func testBinaryPlistPointerIsRead() throws {
        let directory = try makeTemporaryDirectory(self)
        let bundle = try writeBundle(
            in: directory, versions: [("Near 1", "<entity name=\"A\"/>"), ("Near 2", "<entity name=\"B\"/>")])
        let plist = try PropertyListSerialization.data(
            fromPropertyList: ["_XCCurrentVersionName": "Near 1.xcdatamodel"], format: .binary, options: 0)
        try plist.write(to: bundle.appendingPathComponent(".xccurrentversion"))
        let loaded = BundleLoader.load(bundleURL: bundle, displayPath: "Near.xcdatamodeld")
        XCTAssertEqual(loaded.declaredCurrentVersion, "Near 1")
        XCTAssertEqual(lint(bundle).map(\.ruleId).filter { $0.hasPrefix("current") }, ["current-version-not-latest"])
    }

    func testSymlinkLoopUnderASearchedDirectoryTerminates() throws {
        let directory = try makeTemporaryDirectory(self)
        try writeBundle(
            in: directory.appendingPathComponent("a"), versions: [("Near 1", "<entity name=\"A\"/>")], current: "Near 1"
        )
        try FileManager.default.createSymbolicLink(
            atPath: directory.appendingPathComponent("a/loop").path, withDestinationPath: directory.path)
        try FileManager.default.createSymbolicLink(
            atPath: directory.appendingPathComponent("self").path, withDestinationPath: "self")
        let out = modellint(["check"], in: directory)
        XCTAssertEqual(out.exitCode, 0)
        XCTAssertEqual(out.standardOutput, "0 errors, 0 warnings, 0 notes in 1 bundle (1 version)\n")
    }

    func testHundredsOfVersionsInOrder() throws {
        let directory = try makeTemporaryDirectory(self)
        let versions = (1...300).map {
            (
                "Model \($0)",
                "<entity name=\"Thing\"><attribute name=\"v\($0)\" optional=\"YES\" attributeType=\"String\" elementID=\"v\"/></entity>"
            )
        }
        try writeBundle(in: directory, name: "Big", versions: versions.shuffled(), current: "Model 300")
        let loaded = BundleLoader.load(
            bundleURL: directory.appendingPathComponent("Big.xcdatamodeld"), displayPath: "Big.xcdatamodeld")
        XCTAssertEqual(loaded.versions.map(\.name), (1...300).map { "Model \($0)" })
        XCTAssertEqual(loaded.currentVersion?.name, "Model 300")
        // Each step renames through the same identifier: one reliance warning per step, nothing else.
        let found = lint(directory.appendingPathComponent("Big.xcdatamodeld"))
        XCTAssertEqual(Set(found.map(\.ruleId)), ["renaming-id-reliance"])
        XCTAssertEqual(found.count, 299)
    }

    func testUnreadableContentsIsAFinding() throws {
        let directory = try makeTemporaryDirectory(self)
        let bundle = try writeBundle(in: directory, versions: [("Near 1", "<entity name=\"A\"/>")], current: "Near 1")
        let contents = bundle.appendingPathComponent("Near 1.xcdatamodel/contents")
        try FileManager.default.setAttributes([.posixPermissions: 0], ofItemAtPath: contents.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: contents.path) }
        if FileManager.default.isReadableFile(atPath: contents.path) {
            throw XCTSkip("running as root: permissions do not stop reads")
        }
        let found = lint(bundle)
        XCTAssertEqual(found.map(\.ruleId), ["malformed-contents"])
        XCTAssertEqual(
            found.first?.message,
            "Near 1 cannot be read as a Core Data model: it cannot be read (permission denied). The version is skipped, and so is every comparison with it"
        )
        XCTAssertEqual(found.first?.fix, Self.sandboxFix)
    }

    static let sandboxFix =
        "let modellint read it: in an Xcode Run Script phase with user script sandboxing, list it among the phase's input files; otherwise check the file's permissions"

    /// A file the system refuses to read may be fine (Xcode's sandbox keeps undeclared inputs away): its fix is not
    /// to restore it. Any other unreadable or malformed file keeps the rule's fix. (Root reads through permissions,
    /// so this holds the version the reader would give.)
    func testARefusedReadIsNotToldToRestoreTheFile() {
        func diagnostic(_ reason: String) -> Diagnostic? {
            let version = ModelVersion(
                name: "Near 1", folderPath: "M.xcdatamodeld/Near 1.xcdatamodel",
                contentsPath: "M.xcdatamodeld/Near 1.xcdatamodel/contents",
                content: .malformed(
                    reason: reason, location: SourceLocation(file: "M.xcdatamodeld/Near 1.xcdatamodel/contents")))
            let bundle = ModelBundle(path: "M.xcdatamodeld", versions: [version], currentVersionFile: .absent)
            return MalformedContentsRule().check(bundle).first.map {
                Diagnostic(MalformedContentsRule.description, $0, severity: .error, bundle: bundle.path, version: nil)
            }
        }
        XCTAssertEqual(diagnostic(FileReader.ReadError.permissionDenied.description)?.fix, Self.sandboxFix)
        XCTAssertEqual(
            diagnostic("\(FileReader.ReadError.failed("input/output error"))")?.fix,
            "repair the file, usually by restoring it from version control")
        XCTAssertEqual(
            diagnostic("line 3: not well-formed")?.fix, "repair the file, usually by restoring it from version control")
    }

    func testUnversionedBundlesAreAccepted() throws {
        let directory = try makeTemporaryDirectory(self)
        let bundle = try writeBundle(
            in: directory, name: "PreviousHarmony", versions: [("Harmony", "<entity name=\"A\"/>")])
        let loaded = BundleLoader.load(bundleURL: bundle, displayPath: "PreviousHarmony.xcdatamodeld")
        XCTAssertEqual(loaded.currentVersion?.name, "Harmony")
        XCTAssertEqual(lint(bundle), [])
    }
}
