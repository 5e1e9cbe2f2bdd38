import Foundation
import XCTest
import ModelLintSupport
import ModelLintModel
import ModelLintRepair
import ModelLintCommands
import ModelLintGather

/// `modellint fix` on hand-written fixtures (Fixtures/Fix): the repaired bytes against a hand-written expected
/// file, the dry run's exact output, idempotence, and the refusals that leave every byte as it was.
final class FixTests: XCTestCase {
    private func copy(_ fixture: String) throws -> URL {
        let directory = try makeTemporaryDirectory(self)
        let source = repositoryRoot.appendingPathComponent("Fixtures/Fix/\(fixture)/Shop.xcdatamodeld")
        try FileManager.default.copyItem(at: source, to: directory.appendingPathComponent("Shop.xcdatamodeld"))
        return directory
    }

    private func bytes(_ url: URL) throws -> Data { try Data(contentsOf: url) }

    private func snapshot(_ directory: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        let walker = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil)
        while let url = walker?.nextObject() as? URL {
            if !url.hasDirectoryPath { files[url.path] = try Data(contentsOf: url) }
        }
        return files
    }

    private let shop2 = "Shop.xcdatamodeld/Shop 2.xcdatamodel/contents"

    func testDryRunPrintsTheDiffAndWritesNothing() throws {
        let directory = try copy("Respell")
        let before = try snapshot(directory)
        let out = modellint(["fix", "--dry-run"], in: directory)
        XCTAssertEqual(out.exitCode, 0, out.standardError)
        XCTAssertEqual(try snapshot(directory), before)
        let lines = out.standardOutput.components(separatedBy: "\n")
        XCTAssertEqual(lines[0], "--- a/\(shop2)")
        XCTAssertEqual(lines[1], "+++ b/\(shop2)")
        XCTAssertEqual(lines[2], "@@ -1,13 +1,13 @@")
        XCTAssertEqual(lines.filter { $0.hasPrefix("-  ") }.count, 5)
        XCTAssertEqual(lines.filter { $0.hasPrefix("+  ") }.count, 5)
        XCTAssertTrue(
            lines.contains(
                "+        <attribute name=\"author\" optional=\"YES\" attributeType=\"String\" elementID=\"writer\"/>"))
        XCTAssertEqual(
            lines.filter { $0.hasPrefix("would repair: ") || $0.hasPrefix("needs a person: ") },
            [
                "would repair: \(shop2):4: suspicious-default-value: Item.archived's default respelled in Shop 2 (\"false\" -> \"NO\")",
                "would repair: \(shop2):5: renaming-identifier-xml-attribute: Item.author in Shop 2: renamingIdentifier=\"writer\" -> elementID=\"writer\"",
                "would repair: \(shop2):6: suspicious-default-value: Item.count's default respelled in Shop 2 (\"0.0\" -> \"0\"); 1 shipped version keeps it",
                "would repair: \(shop2):8: suspicious-default-value: Item.hidden's default respelled in Shop 2 (\"NO\" -> \"0\")",
                "would repair: \(shop2):10: suspicious-default-value: Item.score's default respelled in Shop 2 (\"NO\" -> \"0\")",
                // Value-changing respellings wait for a record that Shop 2 has not shipped.
                "needs a person: \(shop2):7: suspicious-default-value: \"YES\" -> \"1\" changes what new objects get, and with no lock file, --released or --against nothing shows Shop 2 has not shipped: write the value you mean",
                "needs a person: \(shop2):9: suspicious-default-value: \"Yes\" -> \"YES\" changes what new objects get, and with no lock file, --released or --against nothing shows Shop 2 has not shipped: write the value you mean",
            ])
        XCTAssertEqual(
            lines[lines.count - 2],
            "would repair 5 findings in 1 file; 2 need a person; after: 0 errors, 2 warnings")
    }

    /// A lock file that records Shop 1 only shows Shop 2 has not shipped: the respellings that change a value apply.
    func testWithAShippedRecordValueChangingRespellingsApply() throws {
        let directory = try copy("Respell")
        XCTAssertEqual(modellint(["lock"], in: directory).exitCode, 0)
        let lockFile = directory.appendingPathComponent("modellint.lock")
        var lock = try JSONSerialization.jsonObject(with: Data(contentsOf: lockFile)) as! [String: Any]
        var bundles = lock["bundles"] as! [String: Any]
        var shop = bundles["Shop.xcdatamodeld"] as! [String: Any]
        var versions = shop["versions"] as! [String: Any]
        versions["Shop 2"] = nil
        shop["versions"] = versions
        bundles["Shop.xcdatamodeld"] = shop
        lock["bundles"] = bundles
        try JSONSerialization.data(withJSONObject: lock).write(to: lockFile)
        let out = modellint(["fix"], in: directory)
        XCTAssertEqual(out.exitCode, 0, out.standardError)
        XCTAssertTrue(
            out.standardOutput.contains(
                "repaired: \(shop2):7: suspicious-default-value: Item.flagged's default respelled in Shop 2 (\"YES\" -> \"1\", the value the editor showed; it read 0)\n"
            ), out.standardOutput)
        XCTAssertTrue(
            out.standardOutput.hasSuffix(
                "repaired 7 findings in 1 file; 0 need a person; after: 0 errors, 0 warnings\n"))
        XCTAssertEqual(
            try bytes(directory.appendingPathComponent(shop2)),
            try bytes(
                repositoryRoot.appendingPathComponent(
                    "Fixtures/Fix/Respell.expected/Shop 2.with-shipped-record.contents")))
    }

    func testFixWritesTheExpectedBytesAndASecondRunChangesNothing() throws {
        let directory = try copy("Respell")
        let shipped = try bytes(directory.appendingPathComponent("Shop.xcdatamodeld/Shop 1.xcdatamodel/contents"))
        let checked = modellint(["check", "--format", "json"], in: directory)
        XCTAssertEqual(checked.exitCode, 1)
        let out = modellint(["fix"], in: directory)
        XCTAssertEqual(out.exitCode, 0, out.standardError)
        XCTAssertTrue(
            out.standardOutput.hasSuffix(
                "repaired 5 findings in 1 file; 2 need a person; after: 0 errors, 2 warnings\n"))
        let expected = try bytes(repositoryRoot.appendingPathComponent("Fixtures/Fix/Respell.expected/Shop 2.contents"))
        XCTAssertEqual(try bytes(directory.appendingPathComponent(shop2)), expected)
        // The shipped version is never touched: its finding stays, as a note.
        XCTAssertEqual(
            try bytes(directory.appendingPathComponent("Shop.xcdatamodeld/Shop 1.xcdatamodel/contents")), shipped)
        let after = modellint(["check", "--format", "json", "--notes"], in: directory)
        XCTAssertEqual(after.exitCode, 0, after.standardOutput)
        let report = try JSONSerialization.jsonObject(with: Data(after.standardOutput.utf8)) as! [String: Any]
        let findings = (report["diagnostics"] as! [[String: Any]]).map {
            "\($0["ruleId"]!) \($0["severity"]!) \($0["version"] ?? "-") \($0["message"]!)"
        }
        XCTAssertEqual(
            findings,
            [
                "suspicious-default-value note Shop 1 Item.count has a suspicious default: \"0.0\" is a fractional spelling on an Integer 32 attribute; write 0",
                // The rename now made through elementID: the reminder to verify the build keeps it.
                "renaming-id-reliance note Shop 2 Item.writer was renamed to author between Shop 1 and Shop 2 through its renaming identifier \"writer\": if the compiled model loses it, the data is dropped and author reads nil",
                // Left to a person: respelling them would change what new objects get.
                "suspicious-default-value warning Shop 2 Item.flagged has a suspicious default: \"YES\" is a Boolean spelling on an Integer 16 attribute: converted to an integer it reads 0, so the default the editor shows is not the one the app gets",
                "suspicious-default-value warning Shop 2 Item.pinned has a suspicious default: \"Yes\" is not how a Boolean default is written (YES, NO, 0 or 1)",
            ])
        let before = try snapshot(directory)
        let again = modellint(["fix"], in: directory)
        XCTAssertEqual(again.exitCode, 0)
        XCTAssertTrue(
            again.standardOutput.hasSuffix(
                "repaired 0 findings in 0 files; 2 need a person; after: 0 errors, 2 warnings\n"),
            again.standardOutput)
        XCTAssertEqual(try snapshot(directory), before)
    }

    func testOnlyLimitsTheRepairs() throws {
        let directory = try copy("Respell")
        let out = modellint(["fix", "--only", "renaming-identifier-xml-attribute"], in: directory)
        // The suspicious defaults are left: warnings, so the repaired tree still fails under --strict only.
        XCTAssertEqual(out.exitCode, 0, out.standardError)
        XCTAssertTrue(out.standardOutput.hasPrefix("repaired: \(shop2):5: renaming-identifier-xml-attribute: "))
        XCTAssertTrue(
            out.standardOutput.hasSuffix("repaired 1 finding in 1 file; 0 need a person; after: 0 errors, 5 warnings\n")
        )
        let text = String(decoding: try bytes(directory.appendingPathComponent(shop2)), as: UTF8.self)
        XCTAssertTrue(text.contains("elementID=\"writer\""))
        XCTAssertTrue(text.contains("defaultValueString=\"false\""))
        // Under --strict the two warnings fix leaves to a person still fail, as check would fail on them.
        XCTAssertEqual(modellint(["fix", "--strict", "--dry-run"], in: directory).exitCode, 1)
        XCTAssertEqual(modellint(["fix", "--dry-run"], in: directory).exitCode, 0)
        XCTAssertEqual(modellint(["check", "--strict"], in: directory).exitCode, 1)
    }

    func testUnknownOrUnrepairableRulesAreUsageErrors() throws {
        let directory = try copy("Respell")
        let unknown = modellint(["fix", "--only", "suspicious-default"], in: directory)
        XCTAssertEqual(unknown.exitCode, 2)
        XCTAssertTrue(unknown.standardError.contains("did you mean 'suspicious-default-value'?"), unknown.standardError)
        let unrepairable = modellint(["fix", "--only", "entity-removed"], in: directory)
        XCTAssertEqual(unrepairable.exitCode, 2)
        XCTAssertEqual(
            unrepairable.standardError,
            "modellint: fix has no repair for 'entity-removed'; 5 rules have one: suspicious-default-value, renaming-identifier-xml-attribute, declared-rename-missing-id, shipped-version-edited, version-edited-after-superseded\n"
        )
    }

    /// A shipped version with the same hand-written attribute was compiled without it: converting would drop its
    /// stores' data, so the finding is left to a person and no byte changes.
    func testARenamingIdentifierThatShippedIsLeftToAPerson() throws {
        let directory = try copy("ShippedRenamingIdentifier")
        let before = try snapshot(directory)
        let out = modellint(["fix"], in: directory)
        XCTAssertEqual(out.exitCode, 0)
        XCTAssertEqual(
            out.standardOutput.components(separatedBy: "\n").first,
            "needs a person: Shop.xcdatamodeld/Shop 3.xcdatamodel/contents:4: renaming-identifier-xml-attribute: Shop 2 shipped with the same renamingIdentifier, which its build ignored: its stores know Book.author by its own name, and an elementID now would drop that data on every device that installed it"
        )
        XCTAssertTrue(
            out.standardOutput.hasSuffix(
                "repaired 0 findings in 0 files; 1 needs a person; after: 0 errors, 0 warnings\n"))
        XCTAssertEqual(try snapshot(directory), before)
    }

    /// A version file committed as a symbolic link is never written through.
    func testASymlinkedContentsFileIsRefused() throws {
        let directory = try copy("Respell")
        // Inside the bundle, so check reads it; fix still writes through no link.
        let real = directory.appendingPathComponent("Shop.xcdatamodeld/Shop 2.xcdatamodel/real-contents")
        let contents = directory.appendingPathComponent(shop2)
        try FileManager.default.moveItem(at: contents, to: real)
        try FileManager.default.createSymbolicLink(atPath: contents.path, withDestinationPath: "real-contents")
        let before = try bytes(real)
        let out = modellint(["fix"], in: directory)
        XCTAssertEqual(out.exitCode, 2)
        XCTAssertTrue(out.standardError.contains("is a symbolic link"), out.standardError)
        XCTAssertEqual(try bytes(real), before)
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: contents.path), "real-contents")
    }

    /// `explain` says whether fix repairs a rule.
    func testExplainSaysWhetherFixRepairs() throws {
        let directory = try makeTemporaryDirectory(self)
        XCTAssertTrue(
            modellint(["explain", "renaming-identifier-xml-attribute"], in: directory).standardOutput.contains(
                "\n  modellint fix repairs it: it writes the hand-written renamingIdentifier as Xcode's elementID in a version that has not shipped and whose own step makes the rename, unless a shipped version carries the same attribute.\n"
            ))
        XCTAssertTrue(
            modellint(["explain", "entity-removed"], in: directory).standardOutput.contains(
                "\n  modellint fix does not repair it: the safe change needs a person's decision.\n"))
    }

    func testRespellingsSayOnlyWhatTheValueMeans() {
        func spelled(_ value: String, _ type: AttributeTypeName) -> String? {
            (try? SuspiciousDefaultRepair.respelling(of: value, for: type.type).get()).map {
                $0.text + ($0.keepsValue ? "" : " (changes the value)")
            }
        }
        XCTAssertEqual(spelled("0.0", .integer32), "0")
        XCTAssertEqual(spelled("-3.00", .integer16), "-3")
        XCTAssertNil(spelled("0.5", .integer16))
        XCTAssertNil(spelled("70000.0", .integer16))
        XCTAssertEqual(spelled("YES", .integer64), "1 (changes the value)")
        XCTAssertEqual(spelled("NO", .float), "0")
        XCTAssertEqual(spelled("true", .boolean), "YES (changes the value)")
        XCTAssertEqual(spelled("No", .boolean), "NO")
        XCTAssertNil(spelled("2", .boolean))
    }
}

/// The attribute types the respelling test names (the model's `AttributeType` by its XML value).
enum AttributeTypeName: String {
    case integer16 = "Integer 16"
    case integer32 = "Integer 32"
    case integer64 = "Integer 64"
    case float = "Float"
    case boolean = "Boolean"
    var type: ModelLintModel.AttributeType { .init(xmlValue: rawValue) }
}

/// The line diff `fix --dry-run` prints, against hand-made expectations.
final class UnifiedDiffTests: XCTestCase {
    func testHunksContextAndEndOfFile() {
        let old = Array("a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n".utf8)
        let new = Array("a\nB\nc\nd\ne\nf\ng\nh\ni\nJ".utf8)
        XCTAssertEqual(
            UnifiedDiff.diff(old: old, new: new, path: "x"),
            """
            --- a/x
            +++ b/x
            @@ -1,5 +1,5 @@
             a
            -b
            +B
             c
             d
             e
            @@ -7,4 +7,4 @@
             g
             h
             i
            -j
            +J
            \\ No newline at end of file

            """)
        XCTAssertEqual(UnifiedDiff.diff(old: old, new: old, path: "x"), "")
        XCTAssertEqual(
            UnifiedDiff.diff(old: nil, new: Array("n\n".utf8), path: "x"),
            "--- /dev/null\n+++ b/x\n@@ -0,0 +1,1 @@\n+n\n")
        // A line end changed from CRLF to LF is a change.
        XCTAssertEqual(
            UnifiedDiff.diff(old: Array("a\r\n".utf8), new: Array("a\n".utf8), path: "x"),
            "--- a/x\n+++ b/x\n@@ -1,1 +1,1 @@\n-a\n+a\n")
    }

    /// Two unrelated files of thousands of lines: the search would hold gigabytes of frontiers, so the lines between
    /// the common first and last ones are replaced whole, in one hunk with its context.
    func testUnrelatedLongFilesAreReplacedWithinTheBudget() {
        let old = Array(("head\n" + (0..<3_000).map { "old \($0)\n" }.joined() + "tail\n").utf8)
        let new = Array(("head\n" + (0..<3_000).map { "new \($0)\n" }.joined() + "tail\n").utf8)
        let lines = UnifiedDiff.diff(old: old, new: new, path: "x").components(separatedBy: "\n")
        XCTAssertEqual(Array(lines.prefix(4)), ["--- a/x", "+++ b/x", "@@ -1,3002 +1,3002 @@", " head"])
        XCTAssertEqual(lines.filter { $0.hasPrefix("-old ") }.count, 3_000)
        XCTAssertEqual(lines.filter { $0.hasPrefix("+new ") }.count, 3_000)
        XCTAssertEqual(lines[lines.count - 2], " tail")
    }

    func testStartTagsAreFoundByNameOnTheirLine() {
        let text = Array(
            "<a>\r\n  <attribute name=\"x\" d='1'/><attribute name=\"y\" defaultValueString=\"&quot;q&quot;\"/>\n".utf8)
        let tag = StartTag.find(in: text, element: "attribute", named: "y", line: 2, column: 3)
        XCTAssertEqual(tag?.field("defaultValueString")?.value, "\"q\"")
        XCTAssertEqual(tag.map { String(decoding: text[$0.range], as: UTF8.self) }?.hasSuffix("/>"), true)
        XCTAssertNil(StartTag.find(in: text, element: "attribute", named: "y", line: 1, column: 1))
        XCTAssertNil(StartTag.parse(Array("<attribute name=\"x".utf8), at: 0))
    }
}

/// `shipped-version-edited`: the shipped version restored byte for byte from git, the edit moved into a new version
/// when it is the newest, shown for a person when later versions exist; nothing changed without a revision.
final class FixRestoreTests: XCTestCase {
    private let fixture = repositoryRoot.appendingPathComponent("Fixtures/Fix/ShippedEdit")
    private let shop1 = "Shop.xcdatamodeld/Shop 1.xcdatamodel/contents"
    private let shop2 = "Shop.xcdatamodeld/Shop 2.xcdatamodel/contents"
    private let pointer = "Shop.xcdatamodeld/.xccurrentversion"

    /// A repository whose commit tagged v1.0 holds the fixture's bundle, with `Shop 1` then edited in place.
    private func repository(laterVersion: Bool = false) throws -> URL {
        let directory = try makeTemporaryDirectory(self)
        try FileManager.default.copyItem(
            at: fixture.appendingPathComponent("Shop.xcdatamodeld"),
            to: directory.appendingPathComponent("Shop.xcdatamodeld"))
        try git(["init", "-q"], in: directory)
        try git(["add", "-A"], in: directory)
        try git(["commit", "-qm", "v1"], in: directory)
        try git(["tag", "v1.0"], in: directory)
        if laterVersion {
            // Shop 2, made current after the release; then Shop 1 edited by mistake.
            let folder = directory.appendingPathComponent("Shop.xcdatamodeld/Shop 2.xcdatamodel")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try FileManager.default.copyItem(
                at: directory.appendingPathComponent(shop1), to: folder.appendingPathComponent("contents"))
            try Data(CurrentVersionPointer.bytes(naming: "Shop 2")).write(to: directory.appendingPathComponent(pointer))
            try git(["add", "-A"], in: directory)
            try git(["commit", "-qm", "Shop 2"], in: directory)
        }
        try FileManager.default.removeItem(at: directory.appendingPathComponent(shop1))
        try FileManager.default.copyItem(
            at: fixture.appendingPathComponent("edited-Shop 1.contents"), to: directory.appendingPathComponent(shop1))
        return directory
    }

    private func data(_ directory: URL, _ path: String) throws -> Data {
        try Data(contentsOf: directory.appendingPathComponent(path))
    }

    func testTheNewestVersionIsRestoredAndItsEditMovesIntoANewVersion() throws {
        let directory = try repository()
        let shipped = try data(fixture, "Shop.xcdatamodeld/Shop 1.xcdatamodel/contents")
        let edited = try Data(contentsOf: fixture.appendingPathComponent("edited-Shop 1.contents"))
        XCTAssertEqual(modellint(["check", "--released", "v1.0"], in: directory).exitCode, 1)
        let commit = try git(["rev-parse", "--short=7", "v1.0"], in: directory).trimmingCharacters(
            in: .whitespacesAndNewlines)

        let dry = modellint(["fix", "--released", "v1.0", "--dry-run"], in: directory)
        XCTAssertEqual(dry.exitCode, 0, dry.standardError)
        XCTAssertEqual(try data(directory, shop1), edited)
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory.appendingPathComponent(shop2).path))
        let lines = dry.standardOutput.components(separatedBy: "\n")
        XCTAssertEqual(Array(lines.prefix(3)), ["--- /dev/null", "+++ b/\(shop2)", "@@ -0,0 +1,8 @@"])
        XCTAssertTrue(lines.contains("--- a/\(shop1)"))
        XCTAssertTrue(
            lines.contains("-        <attribute name=\"subtitle\" optional=\"YES\" attributeType=\"String\"/>"))
        XCTAssertTrue(lines.contains("-\t<string>Shop 1.xcdatamodel</string>"))
        XCTAssertTrue(lines.contains("+\t<string>Shop 2.xcdatamodel</string>"))
        XCTAssertTrue(
            lines.contains(
                "would repair: \(shop1):5: shipped-version-edited: restored Shop 1 as it shipped at v1.0 (\(commit)), and moved the edit into a new version Shop 2, now current"
            ), dry.standardOutput)
        XCTAssertEqual(
            lines[lines.count - 2], "would repair 1 finding in 3 files; 0 need a person; after: 0 errors, 0 warnings")

        let out = modellint(["fix", "--released", "v1.0"], in: directory)
        XCTAssertEqual(out.exitCode, 0, out.standardError)
        XCTAssertEqual(try data(directory, shop1), shipped)
        XCTAssertEqual(try data(directory, shop2), edited)
        XCTAssertEqual(try data(directory, pointer), Data(CurrentVersionPointer.bytes(naming: "Shop 2")))
        let check = modellint(["check", "--released", "v1.0", "--format", "json", "--notes"], in: directory)
        XCTAssertEqual(check.exitCode, 0)
        XCTAssertEqual(jsonDiagnostics(check).map { $0["ruleId"] as! String }, [])
        let again = modellint(["fix", "--released", "v1.0"], in: directory)
        XCTAssertEqual(
            again.standardOutput, "repaired 0 findings in 0 files; 0 need a person; after: 0 errors, 0 warnings\n")
        XCTAssertEqual(try data(directory, shop2), edited)
    }

    /// A lock file keeps digests only: the revision is the newest commit whose bytes have the recorded digest.
    func testALockFilesDigestFindsTheRevision() throws {
        let directory = try repository()
        let shipped = try data(fixture, "Shop.xcdatamodeld/Shop 1.xcdatamodel/contents")
        // The lock written from the shipped state (HEAD), then the edit put back.
        let edited = try data(directory, shop1)
        try git(["checkout", "-q", "--", shop1], in: directory)
        XCTAssertEqual(modellint(["lock"], in: directory).exitCode, 0)
        try edited.write(to: directory.appendingPathComponent(shop1))
        XCTAssertEqual(modellint(["check"], in: directory).exitCode, 1)
        let out = modellint(["fix"], in: directory)
        XCTAssertEqual(out.exitCode, 0, out.standardOutput + out.standardError)
        XCTAssertTrue(
            out.standardOutput.contains(
                "(the digest modellint.lock records), and moved the edit into a new version Shop 2, now current"),
            out.standardOutput)
        XCTAssertEqual(try data(directory, shop1), shipped)
        XCTAssertEqual(try data(directory, shop2), edited)
    }

    /// Later versions exist: the shipped version is restored and the edit is shown, never a copy made current over
    /// them.
    func testWithLaterVersionsTheEditIsShownNotCarried() throws {
        let directory = try repository(laterVersion: true)
        let shipped = try data(fixture, "Shop.xcdatamodeld/Shop 1.xcdatamodel/contents")
        let later = try data(directory, shop2)
        let laterPointer = try data(directory, pointer)
        let out = modellint(["fix", "--released", "v1.0"], in: directory)
        XCTAssertEqual(out.exitCode, 0, out.standardError)
        XCTAssertEqual(try data(directory, shop1), shipped)
        XCTAssertEqual(try data(directory, shop2), later)
        XCTAssertEqual(try data(directory, pointer), laterPointer)
        let lines = out.standardOutput.components(separatedBy: "\n")
        XCTAssertTrue(
            lines.contains {
                $0.hasSuffix("the edit was not carried into Shop 2: make it there if it is still wanted:")
            },
            out.standardOutput)
        XCTAssertTrue(
            lines.contains("    +        <attribute name=\"subtitle\" optional=\"YES\" attributeType=\"String\"/>"))
    }

    /// Outside git there is no revision to restore from: nothing changes, and the finding says why.
    func testWithoutHistoryNothingChanges() throws {
        let directory = try makeTemporaryDirectory(self)
        try FileManager.default.copyItem(
            at: fixture.appendingPathComponent("Shop.xcdatamodeld"),
            to: directory.appendingPathComponent("Shop.xcdatamodeld"))
        XCTAssertEqual(modellint(["lock"], in: directory).exitCode, 0)
        try FileManager.default.removeItem(at: directory.appendingPathComponent(shop1))
        try FileManager.default.copyItem(
            at: fixture.appendingPathComponent("edited-Shop 1.contents"), to: directory.appendingPathComponent(shop1))
        let edited = try data(directory, shop1)
        let out = modellint(["fix"], in: directory)
        XCTAssertEqual(out.exitCode, 1)
        XCTAssertTrue(
            out.standardOutput.hasPrefix(
                "needs a person: \(shop1):3: shipped-version-edited: Shop.xcdatamodeld is not in a git repository: no revision to restore from; nothing was changed\n"
            ), out.standardOutput)
        XCTAssertEqual(try data(directory, shop1), edited)
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory.appendingPathComponent(shop2).path))
    }
}

/// Renames the team declares in `.modellint.json` (`renamed`): check holds the model to them, fix writes them.
final class DeclaredRenameTests: XCTestCase {
    private let shop2 = "Shop.xcdatamodeld/Shop 2.xcdatamodel/contents"

    private func copy() throws -> URL {
        let directory = try makeTemporaryDirectory(self)
        let source = repositoryRoot.appendingPathComponent("Fixtures/Fix/DeclaredRename")
        // The configuration is kept as `modellint.json.fixture`: a `.modellint.json` inside Fixtures would govern
        // the repository's own fixture runs.
        for (name, copy) in [("Shop.xcdatamodeld", "Shop.xcdatamodeld"), ("modellint.json.fixture", ".modellint.json")]
        {
            try FileManager.default.copyItem(
                at: source.appendingPathComponent(name), to: directory.appendingPathComponent(copy))
        }
        return directory
    }

    private func findings(_ out: CommandOutput) -> [String] {
        jsonDiagnostics(out).map {
            "\($0["ruleId"]!) \($0["severity"]!) \($0["version"] ?? "-") \($0["entity"] ?? "-").\($0["property"] ?? "-") @\($0["line"] ?? 0)"
        }
    }

    /// The declared renames are the step's story: no removal or rename guess, one error per rename the model lacks.
    func testCheckReportsTheMissingIdentifiersInsteadOfRemovals() throws {
        let directory = try copy()
        let out = modellint(["check", "--format", "json", "--notes"], in: directory)
        XCTAssertEqual(out.exitCode, 1)
        XCTAssertEqual(
            findings(out),
            [
                "declared-rename-missing-id error Shop 2 Book.author @4",
                "declared-rename-missing-id error Shop 2 Imprint.- @7",
            ])
        XCTAssertEqual(
            jsonDiagnostics(out).first?["message"] as? String,
            "Book.author is declared renamed from writer in Shop 2, but Shop 2 does not carry writer's renaming identifier \"writer\": the rename does not happen, writer's data is dropped and author reads nil"
        )
        // Without the declarations, the same step is a rename guess and a removal.
        try FileManager.default.removeItem(at: directory.appendingPathComponent(".modellint.json"))
        XCTAssertEqual(
            findings(modellint(["check", "--format", "json", "--notes"], in: directory)),
            [
                "entity-removed warning Shop 2 Publisher.- @7",
                "property-renamed-without-renaming-id warning Shop 2 Book.author @4",
            ])
    }

    func testFixWritesTheOldIdentifiersAsXcodeWould() throws {
        let directory = try copy()
        let out = modellint(["fix"], in: directory)
        XCTAssertEqual(out.exitCode, 0, out.standardOutput + out.standardError)
        XCTAssertEqual(
            out.standardOutput,
            """
            repaired: \(shop2):4: declared-rename-missing-id: Book.author: elementID="writer" written in Shop 2
            repaired: \(shop2):7: declared-rename-missing-id: Imprint: elementID="Publisher" written in Shop 2
            repaired 2 findings in 1 file; 0 need a person; after: 0 errors, 0 warnings

            """)
        XCTAssertEqual(
            try Data(contentsOf: directory.appendingPathComponent(shop2)),
            try Data(
                contentsOf: repositoryRoot.appendingPathComponent(
                    "Fixtures/Fix/DeclaredRename.expected/Shop 2.contents")))
        let check = modellint(["check", "--format", "json", "--notes"], in: directory)
        XCTAssertEqual(check.exitCode, 0)
        XCTAssertEqual(
            findings(check).filter { !$0.hasPrefix("renaming-id-reliance ") }, [], check.standardOutput)
        let again = modellint(["fix"], in: directory)
        XCTAssertEqual(
            again.standardOutput, "repaired 0 findings in 0 files; 0 need a person; after: 0 errors, 0 warnings\n")
    }

    /// A declaration that names nothing is a configuration error (exit 2) with the closest name, never a finding.
    func testADeclarationThatNamesNothingIsAConfigurationError() throws {
        let directory = try copy()
        let file = directory.appendingPathComponent(".modellint.json")
        let text = try String(contentsOf: file, encoding: .utf8)
        for (wrong, right, message) in [
            (
                "\"from\": \"writer\"", "\"from\": \"writter\"",
                "bundles.Shop.xcdatamodeld.renamed[0].from: Shop 1 has no property of Book named writter (did you mean writer?)"
            ),
            (
                "\"property\": \"author\"", "\"property\": \"autor\"",
                "bundles.Shop.xcdatamodeld.renamed[0].property: Book in Shop 2 has no property named autor (did you mean author?)"
            ),
            (
                "\"version\": \"Shop 2\" },\n        { \"entity\": \"Imprint\"",
                "\"version\": \"Shop 3\" },\n        { \"entity\": \"Imprint\"",
                "bundles.Shop.xcdatamodeld.renamed[0].version: Shop 3 is not a version of the bundle (versions: Shop 1, Shop 2)"
            ),
        ] {
            try Data(text.replacingOccurrences(of: wrong, with: right).utf8).write(to: file)
            let out = modellint(["check"], in: directory)
            XCTAssertEqual(out.exitCode, 2, right)
            XCTAssertTrue(out.standardError.contains(message), out.standardError)
        }
    }
}
