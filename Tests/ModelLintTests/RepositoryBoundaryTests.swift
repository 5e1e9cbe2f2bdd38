import Foundation
import Testing
import ModelLintSupport
import ModelLintModel
import ModelLintHistory
import ModelLintRules
import ModelLintEngine
import ModelLintCommands
import ModelLintGather

/// What a pull request can add around a bundle to make a run pass when it should fail, or reach outside the
/// repository.
@Suite struct RepositoryBoundaryTests {
    let temporary = TemporaryDirectories()

    // Case 6: folders that sort before the app's use up the walk budget; the run stops with exit 2, never "0 bundles".
    @Test func testAnExhaustedWalkBudgetIsAnError() throws {
        let directory = try temporary.make()
        for i in 1...30 {
            try FileManager.default.createDirectory(
                at: directory.appendingPathComponent(String(format: "a%02d", i)), withIntermediateDirectories: true)
        }
        try writeBundle(in: directory.appendingPathComponent("z-app"), versions: [("Near 1", "<entity name=\"A\"/>")])
        try Data(#"{ "walkBudget": 20 }"#.utf8).write(to: directory.appendingPathComponent(".modellint.json"))
        let out = modellint(["check", "--format", "json"], in: directory)
        #expect(out.exitCode == 2)
        #expect(out.standardOutput == "")
        #expect(
            out.standardError
                == "modellint: the search listed 20 folders, its budget, and stopped at a20 before seeing the whole tree; exclude folders (\"exclude\") or raise the budget (\"walkBudget\" in .modellint.json)\n"
        )
        // Raised, the same tree is read whole.
        try Data(#"{ "walkBudget": 100 }"#.utf8).write(to: directory.appendingPathComponent(".modellint.json"))
        let raised = modellint(["check", "--format", "json"], in: directory)
        #expect(raised.exitCode == 0, Comment(rawValue: raised.standardError))
        // lock honours it too.
        try Data(#"{ "walkBudget": 20 }"#.utf8).write(to: directory.appendingPathComponent(".modellint.json"))
        #expect(modellint(["lock"], in: directory).exitCode == 2)
        // A budget that is not a count of folders is a configuration error.
        try Data(#"{ "walkBudget": 0.5 }"#.utf8).write(to: directory.appendingPathComponent(".modellint.json"))
        let bad = modellint(["check"], in: directory)
        #expect(bad.exitCode == 2)
        #expect(bad.standardError.contains("walkBudget"), Comment(rawValue: bad.standardError))
    }

    // Case 9: a lock key written as an absolute path still protects its bundle; one outside the lock's folder is
    // reported, never silently matched to nothing.
    @Test func testAbsoluteLockKeysMatchTheirBundleOrAreReported() throws {
        let directory = try temporary.make()
        let bundle = try writeBundle(
            in: directory, versions: [("Near 1", "<entity name=\"A\"/>"), ("Near 2", "<entity name=\"A\"/>")],
            current: "Near 2")
        #expect(modellint(["lock"], in: directory).exitCode == 0)
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
        #expect(
            (found.map { "\($0["ruleId"]!) \($0["file"]!):\($0["line"] ?? "-")" }.sorted()) == [
                "entity-removed Near.xcdatamodeld/Near 1.xcdatamodel/contents:3",
                "lock-entry-orphaned modellint.lock:5",
                "shipped-version-edited Near.xcdatamodeld/Near 1.xcdatamodel/contents:3",
            ])
        #expect(
            (found.first { $0["ruleId"] as? String == "lock-entry-orphaned" }?["message"] as? String)
                == "modellint.lock records /elsewhere/Other.xcdatamodeld (0 versions) by an absolute path outside the lock file's folder: it matches no bundle, so those versions are protected by nothing; record the bundle by its path relative to the lock file"
        )
        #expect(out.exitCode == 1)
    }

    /// Run from a subfolder of a repository whose configuration sets `diff.relative`: the commit's bundle in
    /// another folder is still found (git would list only this folder's changes, relative to it).
    @Test func testPreCommitFromASubfolderSeesTheWholeCommitWhateverDiffRelativeSays() throws {
        let directory = try temporary.make()
        let models = directory.appendingPathComponent("Models")
        let app = directory.appendingPathComponent("App")
        try FileManager.default.createDirectory(at: app, withIntermediateDirectories: true)
        try Data("// app\n".utf8).write(to: app.appendingPathComponent("README"))
        try stageARequiredAttribute(in: models, repository: directory, configuration: [["diff.relative", "true"]])
        let out = modellint(["check", "--pre-commit", "--format", "json"], in: app)
        #expect(out.exitCode == 1, Comment(rawValue: out.standardError))
        #expect(summary(jsonDiagnostics(out)) == ["required-attribute-without-default error Near 1>Near 2 A.b @3"])
    }

    /// The index is listed at once from the nearest `.git`'s folder, and used only when git names that folder as the
    /// top: reached through a symlink, the folder git names is the real one, and the index is listed again there.
    @Test func testPreCommitThroughASymlinkedFolderListsTheIndexGitNames() throws {
        let directory = try temporary.make()
        let repository = directory.appendingPathComponent("Repository")
        let models = repository.appendingPathComponent("Models")
        try stageARequiredAttribute(in: models, repository: repository)
        let link = directory.appendingPathComponent("Link")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: repository)
        for folder in [repository, link, link.appendingPathComponent("Models")] {
            let out = modellint(["check", "--pre-commit", "--format", "json"], in: folder)
            #expect(out.exitCode == 1, "\(folder.path): \(out.standardError)")
            #expect(
                summary(jsonDiagnostics(out)) == ["required-attribute-without-default error Near 1>Near 2 A.b @3"],
                Comment(rawValue: folder.path))
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
    @Test func testPreCommitJudgesTheIndexNotTheWorkTree() throws {
        let directory = try temporary.make()
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
        #expect(staged.exitCode == 1, Comment(rawValue: staged.standardError))
        #expect(summary(jsonDiagnostics(staged)) == ["required-attribute-without-default error Near 1>Near 2 A.b @3"])
        #expect((jsonDiagnostics(staged).first?["file"] as? String) == "Near.xcdatamodeld/Near 2.xcdatamodel/contents")
        // The reverse: the work tree's error is not what is committed once the clean text is staged.
        try git(["add", "-A"], in: directory)
        try Data(required.utf8).write(to: bundle.appendingPathComponent("Near 2.xcdatamodel/contents"))
        let cleanStaged = modellint(["check", "--pre-commit", "--format", "json"], in: directory)
        #expect(summary(jsonDiagnostics(cleanStaged)) == ["redundant-version note Near 1>Near 2 -.- @2"])
        #expect(cleanStaged.exitCode == 0)
        try git(["checkout", "--", "."], in: directory)
        try git(["commit", "-qm", "Near 2"], in: directory)

        // Locked, then deleted whole: the lock entry protects nothing now.
        #expect(modellint(["lock"], in: directory).exitCode == 0)
        try git(["add", "modellint.lock"], in: directory)
        try git(["commit", "-qm", "lock"], in: directory)
        try git(["rm", "-rq", "Near.xcdatamodeld"], in: directory)
        let deleted = modellint(["check", "--pre-commit", "--strict", "--format", "json"], in: directory)
        #expect(deleted.exitCode == 1, Comment(rawValue: deleted.standardError))
        #expect((jsonDiagnostics(deleted).map { $0["ruleId"] as? String }) == ["lock-entry-orphaned"])
        // A commit that touches nothing of modellint's still reports nothing.
        try git(["reset", "-q", "--hard"], in: directory)
        try Data("notes".utf8).write(to: directory.appendingPathComponent("README.md"))
        try git(["add", "README.md"], in: directory)
        let unrelated = modellint(["check", "--pre-commit", "--strict"], in: directory)
        #expect(unrelated.exitCode == 0)
        #expect(unrelated.standardOutput == "")
    }

    // Case 13: paths the repository chooses (committed symlinks) never lead a write outside it.
    @Test func testWritesStayInsideTheRepository() throws {
        let root = try temporary.make()
        let repository = root.appendingPathComponent("repo")
        let outside = root.appendingPathComponent("outside")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        let victim = outside.appendingPathComponent("victim.txt")
        try Data("untouched".utf8).write(to: victim)
        let bundle = try writeBundle(in: repository, versions: [("Near 1", "<entity name=\"A\"/>")], current: "Near 1")
        let fm = FileManager.default
        func untouched(_ label: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
            #expect(
                (try? String(contentsOf: victim, encoding: .utf8)) == "untouched", Comment(rawValue: label),
                sourceLocation: sourceLocation)
            #expect(
                (try? fm.contentsOfDirectory(atPath: outside.path).sorted()) == ["victim.txt"],
                Comment(rawValue: label), sourceLocation: sourceLocation)
        }

        // --report and --output through a committed symlink, and into a folder that is one.
        try fm.createSymbolicLink(
            atPath: repository.appendingPathComponent("modellint.sarif").path, withDestinationPath: victim.path)
        let report = modellint(["check", "--report", "sarif=modellint.sarif"], in: repository)
        #expect(report.exitCode == 2)
        #expect(
            report.standardError.contains("/repo/modellint.sarif: it is a symbolic link to \(victim.path), outside "),
            Comment(rawValue: report.standardError))
        try fm.createSymbolicLink(
            atPath: repository.appendingPathComponent("reports").path, withDestinationPath: outside.path)
        let folder = modellint(["check", "--output", "reports/r.json", "--format", "json"], in: repository)
        #expect(folder.exitCode == 2)
        #expect(folder.standardError.contains("its folder resolves to "), Comment(rawValue: folder.standardError))
        untouched("reports")

        // --stamp: a symlink is replaced, never followed; on a failing run a folder there is not deleted.
        let stamp = repository.appendingPathComponent("stamp")
        try fm.createSymbolicLink(atPath: stamp.path, withDestinationPath: victim.path)
        #expect(modellint(["check", "--stamp", "stamp"], in: repository).exitCode == 0)
        try #expect((fm.attributesOfItem(atPath: stamp.path)[.type] as? FileAttributeType) == .typeRegular)
        untouched("stamp written")
        try fm.removeItem(at: stamp)
        try fm.createDirectory(at: stamp.appendingPathComponent("inside"), withIntermediateDirectories: true)
        try Data("<broken".utf8).write(to: bundle.appendingPathComponent("Near 1.xcdatamodel/contents"))
        let failing = modellint(["check", "--stamp", "stamp"], in: repository)
        #expect(failing.exitCode == 2)
        #expect(
            failing.standardError.contains("it is a directory; modellint removes only files"),
            Comment(rawValue: failing.standardError))
        #expect(fm.fileExists(atPath: stamp.appendingPathComponent("inside").path))
        try fm.removeItem(at: stamp)
        try fm.createSymbolicLink(atPath: stamp.path, withDestinationPath: outside.path)
        #expect(modellint(["check", "--stamp", "stamp"], in: repository).exitCode == 1)
        #expect(!FileReader.entryExists(at: stamp.path), "the link is removed, never what it points to")
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
        #expect(created.exitCode == 0, Comment(rawValue: created.standardError))
        try #expect((fm.attributesOfItem(atPath: pointer.path)[.type] as? FileAttributeType) == .typeRegular)
        try #expect(String(contentsOf: pointer, encoding: .utf8).contains("Near 2.xcdatamodel"))
        try #expect(!String(contentsOf: outside.appendingPathComponent("pointer"), encoding: .utf8).contains("Near 2"))
        try fm.removeItem(at: outside.appendingPathComponent("pointer"))

        // init: a dangling .modellint.json symlink is something that exists; nothing is created through it.
        try fm.createSymbolicLink(
            atPath: repository.appendingPathComponent(".modellint.json").path,
            withDestinationPath: outside.appendingPathComponent("config.json").path)
        let initialised = modellint(["init"], in: repository)
        #expect(initialised.exitCode == 2)
        #expect(
            initialised.standardError.contains(".modellint.json already exists here"),
            Comment(rawValue: initialised.standardError))
        untouched("init")
    }

    // Case 14: a committed Leak.swift -> /outside/file is not opened, and a model's contents symlinked out of its
    // bundle is not read either.
    @Test func testFilesThatResolveOutsideAreNotRead() throws {
        let root = try temporary.make()
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
        #expect(out.exitCode == 0, Comment(rawValue: out.standardError))
        #expect(!out.standardOutput.contains("SECRET"))
        #expect(jsonDiagnostics(out).count == 0)
        #expect(
            out.standardError
                == "modellint: not read: 1 file that resolves outside the repository through a symbolic link (Leak.swift)\n"
        )
        // The same file inside the repository is read (the mechanism, not the name): its checksum is unknown.
        try FileManager.default.removeItem(at: repository.appendingPathComponent("Leak.swift"))
        try Data(secret.utf8).write(to: repository.appendingPathComponent("Inside.swift"))
        try git(["add", "-A"], in: repository)
        #expect(
            (jsonDiagnostics(modellint(["check", "--format", "json"], in: repository)).map { $0["ruleId"] as? String })
                == ["staged-migration-unknown-checksum"])

        // contents symlinked out of its bundle: a named finding, never read.
        try FileManager.default.removeItem(at: repository.appendingPathComponent("Inside.swift"))
        let contents = bundle.appendingPathComponent("Near 1.xcdatamodel/contents")
        try FileManager.default.moveItem(at: contents, to: outside.appendingPathComponent("contents"))
        try FileManager.default.createSymbolicLink(
            atPath: contents.path, withDestinationPath: outside.appendingPathComponent("contents").path)
        let linked = jsonDiagnostics(modellint(["check", "Near.xcdatamodeld", "--format", "json"], in: repository))
        #expect((linked.map { $0["ruleId"] as? String }) == ["malformed-contents"])
        let realOutside = try #require(realpath(outside.path, nil).map { String(cString: $0) })
        #expect(
            (linked.first?["message"] as? String)?.contains("it resolves to \(realOutside)/contents, outside ") == true,
            "\(linked)")
    }

    // Case 15: a repository's configuration names commands git would run while modellint reads; none runs.
    @Test func testGitRunsNoCommandTheRepositoryConfigures() throws {
        let root = try temporary.make()
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
        #expect(add.code == 0, Comment(rawValue: add.err))
        try Data("untracked".utf8).write(to: repository.appendingPathComponent("Untracked.swift"))
        try? FileManager.default.removeItem(at: sentinels)
        try FileManager.default.createDirectory(at: sentinels, withIntermediateDirectories: true)

        #expect(modellint(["check"], in: repository).exitCode == 0)
        #expect(modellint(["check", "--pre-commit"], in: repository).exitCode != 2)
        #expect(modellint(["check", "--against", "HEAD", "--only-new"], in: repository).exitCode == 0)
        #expect(
            modellint(["check", "--released", "HEAD"], in: repository).exitCode == 1, "the edit of the released Near 1")
        #expect(modellint(["lock"], in: repository).exitCode == 0)
        try #expect(
            FileManager.default.contentsOfDirectory(atPath: sentinels.path).sorted() == [],
            "commands the repository configured ran")
        // The scripts do run when git is left to itself: the test would see them.
        _ = try shell("git ls-files --others > /dev/null; git log -p -1 > /dev/null", in: repository)
        #expect(FileManager.default.fileExists(atPath: sentinels.appendingPathComponent("core.fsmonitor").path))
    }
}
