import Foundation
import XCTest
import ModelLintSupport
import ModelLintModel
import ModelLintHistory
import ModelLintRules
import ModelLintEngine
import ModelLintCommands

/// What a pull request can add around a bundle to make a run pass when it should fail, or reach outside the
/// repository (issue 21, cases 6, 8, 9, 13, 14 and 15).
final class RepositoryBoundaryTests: XCTestCase {
    // Case 6: folders that sort before the app's use up the walk budget; the run stops with exit 2, never "0 bundles".
    func testAnExhaustedWalkBudgetIsAnError() throws {
        let directory = try makeTemporaryDirectory(self)
        for i in 1...30 {
            try FileManager.default.createDirectory(
                at: directory.appendingPathComponent(String(format: "a%02d", i)), withIntermediateDirectories: true)
        }
        try writeBundle(in: directory.appendingPathComponent("z-app"), versions: [("Near 1", "<entity name=\"A\"/>")])
        try Data(#"{ "walkBudget": 20 }"#.utf8).write(to: directory.appendingPathComponent(".modellint.json"))
        let out = modellint(["check", "--format", "json"], in: directory)
        XCTAssertEqual(out.exitCode, 2)
        XCTAssertEqual(out.standardOutput, "")
        XCTAssertEqual(
            out.standardError,
            "modellint: the search listed 20 folders, its budget, and stopped at a20 before seeing the whole tree; exclude folders (\"exclude\") or raise the budget (\"walkBudget\" in .modellint.json)\n"
        )
        // Raised, the same tree is read whole.
        try Data(#"{ "walkBudget": 100 }"#.utf8).write(to: directory.appendingPathComponent(".modellint.json"))
        let raised = modellint(["check", "--format", "json"], in: directory)
        XCTAssertEqual(raised.exitCode, 0, raised.standardError)
        // lock honours it too.
        try Data(#"{ "walkBudget": 20 }"#.utf8).write(to: directory.appendingPathComponent(".modellint.json"))
        XCTAssertEqual(modellint(["lock"], in: directory).exitCode, 2)
        // A budget that is not a count of folders is a configuration error.
        try Data(#"{ "walkBudget": 0.5 }"#.utf8).write(to: directory.appendingPathComponent(".modellint.json"))
        let bad = modellint(["check"], in: directory)
        XCTAssertEqual(bad.exitCode, 2)
        XCTAssertTrue(bad.standardError.contains("walkBudget"), bad.standardError)
    }

    // Case 9: a lock key written as an absolute path still protects its bundle; one outside the lock's folder is
    // reported, never silently matched to nothing.
    func testAbsoluteLockKeysMatchTheirBundleOrAreReported() throws {
        let directory = try makeTemporaryDirectory(self)
        let bundle = try writeBundle(
            in: directory, versions: [("Near 1", "<entity name=\"A\"/>"), ("Near 2", "<entity name=\"A\"/>")],
            current: "Near 2")
        XCTAssertEqual(modellint(["lock"], in: directory).exitCode, 0)
        let path = directory.appendingPathComponent("modellint.lock")
        let absolute = PathTools.standardize(bundle.path)
        var text = try String(contentsOf: path, encoding: .utf8).replacingOccurrences(
            of: "\"Near.xcdatamodeld\"", with: "\"\(absolute)\"")
        text = text.replacingOccurrences(
            of: "\"bundles\": {", with: "\"bundles\": {\n    \"/elsewhere/Other.xcdatamodeld\": { \"versions\": {} },")
        try Data(text.utf8).write(to: path)
        try Data((RuleExample.modelHeader + "\n<entity name=\"B\"/>\n</model>\n").utf8).write(
            to: bundle.appendingPathComponent("Near 1.xcdatamodel/contents"))
        let out = modellint(["check", "--format", "json"], in: directory)
        let found = jsonDiagnostics(out)
        XCTAssertEqual(
            found.map { "\($0["ruleId"]!) \($0["file"]!):\($0["line"] ?? "-")" }.sorted(),
            [
                "entity-removed Near.xcdatamodeld/Near 1.xcdatamodel/contents:3",
                "lock-entry-orphaned modellint.lock:5",
                "shipped-version-edited Near.xcdatamodeld/Near 1.xcdatamodel/contents:3",
            ])
        XCTAssertEqual(
            found.first { $0["ruleId"] as? String == "lock-entry-orphaned" }?["message"] as? String,
            "modellint.lock records /elsewhere/Other.xcdatamodeld (0 versions) by an absolute path outside the lock file's folder: it matches no bundle, so those versions are protected by nothing; record the bundle by its path relative to the lock file"
        )
        XCTAssertEqual(out.exitCode, 1)
    }

    /// Run from a subfolder of a repository whose configuration sets `diff.relative`: the commit's bundle in
    /// another folder is still found (git would list only this folder's changes, relative to it).
    func testPreCommitFromASubfolderSeesTheWholeCommitWhateverDiffRelativeSays() throws {
        let directory = try makeTemporaryDirectory(self)
        let models = directory.appendingPathComponent("Models")
        let app = directory.appendingPathComponent("App")
        try FileManager.default.createDirectory(at: app, withIntermediateDirectories: true)
        try Data("// app\n".utf8).write(to: app.appendingPathComponent("README"))
        try stageARequiredAttribute(in: models, repository: directory, configuration: [["diff.relative", "true"]])
        let out = modellint(["check", "--pre-commit", "--format", "json"], in: app)
        XCTAssertEqual(out.exitCode, 1, out.standardError)
        XCTAssertEqual(
            summary(jsonDiagnostics(out)), ["required-attribute-without-default error Near 1>Near 2 A.b @3"])
    }

    /// The index is listed at once from the nearest `.git`'s folder, and used only when git names that folder as the
    /// top: reached through a symlink, the folder git names is the real one, and the index is listed again there.
    func testPreCommitThroughASymlinkedFolderListsTheIndexGitNames() throws {
        let directory = try makeTemporaryDirectory(self)
        let repository = directory.appendingPathComponent("Repository")
        let models = repository.appendingPathComponent("Models")
        try stageARequiredAttribute(in: models, repository: repository)
        let link = directory.appendingPathComponent("Link")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: repository)
        for folder in [repository, link, link.appendingPathComponent("Models")] {
            let out = modellint(["check", "--pre-commit", "--format", "json"], in: folder)
            XCTAssertEqual(out.exitCode, 1, "\(folder.path): \(out.standardError)")
            XCTAssertEqual(
                summary(jsonDiagnostics(out)), ["required-attribute-without-default error Near 1>Near 2 A.b @3"],
                folder.path)
        }
    }

    /// A repository at `repository` whose bundle in `models` was committed at `Near 1`, then `Near 2` staged: it adds
    /// a required attribute without a default (`A.b`, line 3). `configuration` is set before the first commit.
    private func stageARequiredAttribute(in models: URL, repository: URL, configuration: [[String]] = []) throws {
        let attribute = "<entity name=\"A\"><attribute name=\"a\" optional=\"YES\" attributeType=\"String\"/></entity>"
        try FileManager.default.createDirectory(at: models, withIntermediateDirectories: true)
        try writeBundle(in: models, versions: [("Near 1", attribute)], current: "Near 1")
        try git(["init", "-q", "-b", "main"], in: repository)
        for setting in configuration { try git(["config"] + setting, in: repository) }
        try git(["add", "-A"], in: repository)
        try git(["commit", "-qm", "base"], in: repository)
        let required =
            "<entity name=\"A\"><attribute name=\"a\" optional=\"YES\" attributeType=\"String\"/><attribute name=\"b\" attributeType=\"String\"/></entity>"
        try writeBundle(in: models, versions: [("Near 2", required)], current: "Near 2")
        try git(["add", "-A"], in: repository)
    }

    // Case 8: --pre-commit judges what is staged. An error staged and then reverted on disk is committed as staged;
    // a bundle git rm -r'ed while the lock file records it fails --strict.
    func testPreCommitJudgesTheIndexNotTheWorkTree() throws {
        let directory = try makeTemporaryDirectory(self)
        let attribute = "<entity name=\"A\"><attribute name=\"a\" optional=\"YES\" attributeType=\"String\"/></entity>"
        let bundle = try writeBundle(in: directory, versions: [("Near 1", attribute)], current: "Near 1")
        try git(["init", "-q", "-b", "main"], in: directory)
        try git(["add", "-A"], in: directory)
        try git(["commit", "-qm", "base"], in: directory)
        let clean = try String(
            contentsOf: bundle.appendingPathComponent("Near 1.xcdatamodel/contents"), encoding: .utf8)

        // Staged: a second version that adds a required attribute without a default; then reverted on disk.
        let required =
            "<entity name=\"A\"><attribute name=\"a\" optional=\"YES\" attributeType=\"String\"/><attribute name=\"b\" attributeType=\"String\"/></entity>"
        try writeBundle(in: directory, versions: [("Near 2", required)], current: "Near 2")
        try git(["add", "-A"], in: directory)
        try Data(clean.utf8).write(to: bundle.appendingPathComponent("Near 2.xcdatamodel/contents"))
        let staged = modellint(["check", "--pre-commit", "--format", "json"], in: directory)
        XCTAssertEqual(staged.exitCode, 1, staged.standardError)
        XCTAssertEqual(
            summary(jsonDiagnostics(staged)), ["required-attribute-without-default error Near 1>Near 2 A.b @3"])
        XCTAssertEqual(
            jsonDiagnostics(staged).first?["file"] as? String, "Near.xcdatamodeld/Near 2.xcdatamodel/contents")
        // The reverse: the work tree's error is not what is committed once the clean text is staged.
        try git(["add", "-A"], in: directory)
        try Data(required.utf8).write(to: bundle.appendingPathComponent("Near 2.xcdatamodel/contents"))
        let cleanStaged = modellint(["check", "--pre-commit", "--format", "json"], in: directory)
        XCTAssertEqual(summary(jsonDiagnostics(cleanStaged)), ["redundant-version note Near 1>Near 2 -.- @2"])
        XCTAssertEqual(cleanStaged.exitCode, 0)
        try git(["checkout", "--", "."], in: directory)
        try git(["commit", "-qm", "Near 2"], in: directory)

        // Locked, then deleted whole: the lock entry protects nothing now.
        XCTAssertEqual(modellint(["lock"], in: directory).exitCode, 0)
        try git(["add", "modellint.lock"], in: directory)
        try git(["commit", "-qm", "lock"], in: directory)
        try git(["rm", "-rq", "Near.xcdatamodeld"], in: directory)
        let deleted = modellint(["check", "--pre-commit", "--strict", "--format", "json"], in: directory)
        XCTAssertEqual(deleted.exitCode, 1, deleted.standardError)
        XCTAssertEqual(jsonDiagnostics(deleted).map { $0["ruleId"] as? String }, ["lock-entry-orphaned"])
        // A commit that touches nothing of modellint's still reports nothing.
        try git(["reset", "-q", "--hard"], in: directory)
        try Data("notes".utf8).write(to: directory.appendingPathComponent("README.md"))
        try git(["add", "README.md"], in: directory)
        let unrelated = modellint(["check", "--pre-commit", "--strict"], in: directory)
        XCTAssertEqual(unrelated.exitCode, 0)
        XCTAssertEqual(unrelated.standardOutput, "")
    }

    // Case 13: paths the repository chooses (committed symlinks) never lead a write outside it.
    func testWritesStayInsideTheRepository() throws {
        let root = try makeTemporaryDirectory(self)
        let repository = root.appendingPathComponent("repo")
        let outside = root.appendingPathComponent("outside")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        let victim = outside.appendingPathComponent("victim.txt")
        try Data("untouched".utf8).write(to: victim)
        let bundle = try writeBundle(in: repository, versions: [("Near 1", "<entity name=\"A\"/>")], current: "Near 1")
        let fm = FileManager.default
        func untouched(_ label: String, file: StaticString = #filePath, line: UInt = #line) {
            XCTAssertEqual(try? String(contentsOf: victim, encoding: .utf8), "untouched", label, file: file, line: line)
            XCTAssertEqual(
                try? fm.contentsOfDirectory(atPath: outside.path).sorted(), ["victim.txt"], label, file: file,
                line: line)
        }

        // --report and --output through a committed symlink, and into a folder that is one.
        try fm.createSymbolicLink(
            atPath: repository.appendingPathComponent("modellint.sarif").path, withDestinationPath: victim.path)
        let report = modellint(["check", "--report", "sarif=modellint.sarif"], in: repository)
        XCTAssertEqual(report.exitCode, 2)
        XCTAssertTrue(
            report.standardError.contains("/repo/modellint.sarif: it is a symbolic link to \(victim.path), outside "),
            report.standardError)
        try fm.createSymbolicLink(
            atPath: repository.appendingPathComponent("reports").path, withDestinationPath: outside.path)
        let folder = modellint(["check", "--output", "reports/r.json", "--format", "json"], in: repository)
        XCTAssertEqual(folder.exitCode, 2)
        XCTAssertTrue(folder.standardError.contains("its folder resolves to "), folder.standardError)
        untouched("reports")

        // --stamp: a symlink is replaced, never followed; on a failing run a folder there is not deleted.
        let stamp = repository.appendingPathComponent("stamp")
        try fm.createSymbolicLink(atPath: stamp.path, withDestinationPath: victim.path)
        XCTAssertEqual(modellint(["check", "--stamp", "stamp"], in: repository).exitCode, 0)
        XCTAssertEqual(try fm.attributesOfItem(atPath: stamp.path)[.type] as? FileAttributeType, .typeRegular)
        untouched("stamp written")
        try fm.removeItem(at: stamp)
        try fm.createDirectory(at: stamp.appendingPathComponent("inside"), withIntermediateDirectories: true)
        try Data("<broken".utf8).write(to: bundle.appendingPathComponent("Near 1.xcdatamodel/contents"))
        let failing = modellint(["check", "--stamp", "stamp"], in: repository)
        XCTAssertEqual(failing.exitCode, 2)
        XCTAssertTrue(
            failing.standardError.contains("it is a directory; modellint removes only files"), failing.standardError)
        XCTAssertTrue(fm.fileExists(atPath: stamp.appendingPathComponent("inside").path))
        try fm.removeItem(at: stamp)
        try fm.createSymbolicLink(atPath: stamp.path, withDestinationPath: outside.path)
        XCTAssertEqual(modellint(["check", "--stamp", "stamp"], in: repository).exitCode, 1)
        XCTAssertFalse(FileReader.entryExists(at: stamp.path), "the link is removed, never what it points to")
        untouched("stamp removed")

        // new-version: a committed .xccurrentversion symlink is replaced by the new pointer.
        try Data((RuleExample.modelHeader + "\n<entity name=\"A\"/>\n</model>\n").utf8).write(
            to: bundle.appendingPathComponent("Near 1.xcdatamodel/contents"))
        let pointer = bundle.appendingPathComponent(".xccurrentversion")
        try Data(try Data(contentsOf: pointer)).write(to: outside.appendingPathComponent("pointer"))
        try fm.removeItem(at: pointer)
        try fm.createSymbolicLink(
            atPath: pointer.path, withDestinationPath: outside.appendingPathComponent("pointer").path)
        let created = modellint(["new-version", "Near.xcdatamodeld", "--name", "Near 2"], in: repository)
        XCTAssertEqual(created.exitCode, 0, created.standardError)
        XCTAssertEqual(try fm.attributesOfItem(atPath: pointer.path)[.type] as? FileAttributeType, .typeRegular)
        XCTAssertTrue(try String(contentsOf: pointer, encoding: .utf8).contains("Near 2.xcdatamodel"))
        XCTAssertFalse(
            try String(contentsOf: outside.appendingPathComponent("pointer"), encoding: .utf8).contains("Near 2"))
        try fm.removeItem(at: outside.appendingPathComponent("pointer"))

        // init: a dangling .modellint.json symlink is something that exists; nothing is created through it.
        try fm.createSymbolicLink(
            atPath: repository.appendingPathComponent(".modellint.json").path,
            withDestinationPath: outside.appendingPathComponent("config.json").path)
        let initialised = modellint(["init"], in: repository)
        XCTAssertEqual(initialised.exitCode, 2)
        XCTAssertTrue(
            initialised.standardError.contains(".modellint.json already exists here"), initialised.standardError)
        untouched("init")
    }

    // Case 14: a committed Leak.swift -> /outside/file is not opened, and a model's contents symlinked out of its
    // bundle is not read either.
    func testFilesThatResolveOutsideAreNotRead() throws {
        let root = try makeTemporaryDirectory(self)
        let repository = root.appendingPathComponent("repo")
        let outside = root.appendingPathComponent("outside")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        let secret =
            "let v = NSManagedObjectModelReference(model: m, versionChecksum: \"SECRETSECRETSECRETSECRETSECRETSECRETSECRETS=\")\n"
        try Data(secret.utf8).write(to: outside.appendingPathComponent("secret.swift"))
        let bundle = try writeBundle(in: repository, versions: [("Near 1", "<entity name=\"A\"/>")], current: "Near 1")
        try FileManager.default.createSymbolicLink(
            atPath: repository.appendingPathComponent("Leak.swift").path,
            withDestinationPath: outside.appendingPathComponent("secret.swift").path)
        try git(["init", "-q", "-b", "main"], in: repository)
        try git(["add", "-A"], in: repository)
        try git(["commit", "-qm", "base"], in: repository)
        let out = modellint(["check", "--format", "json"], in: repository)
        XCTAssertEqual(out.exitCode, 0, out.standardError)
        XCTAssertFalse(out.standardOutput.contains("SECRET"))
        XCTAssertEqual(jsonDiagnostics(out).count, 0)
        XCTAssertEqual(
            out.standardError,
            "modellint: not read: 1 file that resolves outside the repository through a symbolic link (Leak.swift)\n")
        // The same file inside the repository is read (the mechanism, not the name): its checksum is unknown.
        try FileManager.default.removeItem(at: repository.appendingPathComponent("Leak.swift"))
        try Data(secret.utf8).write(to: repository.appendingPathComponent("Inside.swift"))
        try git(["add", "-A"], in: repository)
        XCTAssertEqual(
            jsonDiagnostics(modellint(["check", "--format", "json"], in: repository)).map { $0["ruleId"] as? String },
            ["staged-migration-unknown-checksum"])

        // contents symlinked out of its bundle: a named finding, never read.
        try FileManager.default.removeItem(at: repository.appendingPathComponent("Inside.swift"))
        let contents = bundle.appendingPathComponent("Near 1.xcdatamodel/contents")
        try FileManager.default.moveItem(at: contents, to: outside.appendingPathComponent("contents"))
        try FileManager.default.createSymbolicLink(
            atPath: contents.path, withDestinationPath: outside.appendingPathComponent("contents").path)
        let linked = jsonDiagnostics(modellint(["check", "Near.xcdatamodeld", "--format", "json"], in: repository))
        XCTAssertEqual(linked.map { $0["ruleId"] as? String }, ["malformed-contents"])
        let realOutside = try XCTUnwrap(realpath(outside.path, nil).map { String(cString: $0) })
        XCTAssertTrue(
            (linked.first?["message"] as? String)?.contains("it resolves to \(realOutside)/contents, outside ") == true,
            "\(linked)")
    }

    // Case 15: a repository's configuration names commands git would run while modellint reads; none runs.
    func testGitRunsNoCommandTheRepositoryConfigures() throws {
        let root = try makeTemporaryDirectory(self)
        let repository = root.appendingPathComponent("repo")
        let sentinels = root.appendingPathComponent("sentinels")
        try FileManager.default.createDirectory(at: sentinels, withIntermediateDirectories: true)
        try writeBundle(in: repository, versions: [("Near 1", "<entity name=\"A\"/>")], current: "Near 1")
        try git(["init", "-q", "-b", "main"], in: repository)
        try git(["add", "-A"], in: repository)
        try git(["commit", "-qm", "base"], in: repository)
        // One script per configuration key: it leaves a file named after the key, and passes its input through.
        func script(_ key: String) throws -> String {
            let path = root.appendingPathComponent("run-\(key)").path
            try Data("#!/bin/sh\ntouch '\(sentinels.path)/\(key)'\ncat\n".utf8).write(to: URL(fileURLWithPath: path))
            chmod(path, 0o755)
            return path
        }
        let hooks = root.appendingPathComponent("hooks")
        try FileManager.default.createDirectory(at: hooks, withIntermediateDirectories: true)
        for hook in ["post-index-change", "reference-transaction", "pre-commit", "post-checkout"] {
            let path = hooks.appendingPathComponent(hook).path
            try Data("#!/bin/sh\ntouch '\(sentinels.path)/hook-\(hook)'\n".utf8).write(to: URL(fileURLWithPath: path))
            chmod(path, 0o755)
        }
        for (key, value) in [
            ("core.fsmonitor", try script("core.fsmonitor")), ("core.untrackedCache", "true"),
            ("core.hooksPath", hooks.path), ("diff.external", try script("diff.external")),
            ("diff.evil.textconv", try script("diff.evil.textconv")),
            ("filter.evil.clean", try script("filter.evil.clean")),
            ("filter.evil.smudge", try script("filter.evil.smudge")), ("core.pager", try script("core.pager")),
            ("pager.log", try script("pager.log")),
        ] {
            try git(["config", key, value], in: repository)
        }
        try Data("* diff=evil filter=evil\n".utf8).write(to: repository.appendingPathComponent(".gitattributes"))
        // Staged: a changed version (pre-commit reads the index), an untracked file (ls-files --others).
        try Data((RuleExample.modelHeader + "\n<entity name=\"B\"/>\n</model>\n").utf8).write(
            to: repository.appendingPathComponent("Near.xcdatamodeld/Near 1.xcdatamodel/contents"))
        let add = try shell(
            "git -c core.fsmonitor=false -c core.hooksPath=/dev/null -c filter.evil.clean=cat add Near.xcdatamodeld",
            in: repository)
        XCTAssertEqual(add.code, 0, add.err)
        try Data("untracked".utf8).write(to: repository.appendingPathComponent("Untracked.swift"))
        try? FileManager.default.removeItem(at: sentinels)
        try FileManager.default.createDirectory(at: sentinels, withIntermediateDirectories: true)

        XCTAssertEqual(modellint(["check"], in: repository).exitCode, 0)
        XCTAssertNotEqual(modellint(["check", "--pre-commit"], in: repository).exitCode, 2)
        XCTAssertEqual(modellint(["check", "--against", "HEAD", "--only-new"], in: repository).exitCode, 0)
        XCTAssertEqual(
            modellint(["check", "--released", "HEAD"], in: repository).exitCode, 1, "the edit of the released Near 1")
        XCTAssertEqual(modellint(["lock"], in: repository).exitCode, 0)
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: sentinels.path).sorted(), [],
            "commands the repository configured ran")
        // The scripts do run when git is left to itself: the test would see them.
        _ = try shell("git ls-files --others > /dev/null; git log -p -1 > /dev/null", in: repository)
        XCTAssertTrue(FileManager.default.fileExists(atPath: sentinels.appendingPathComponent("core.fsmonitor").path))
    }
}
