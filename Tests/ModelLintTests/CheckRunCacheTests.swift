import Foundation
#if canImport(Glibc)
    import Glibc
#endif
import XCTest
import ModelLintSupport
import ModelLintRules
import ModelLintHistory
import ModelLintGather
@testable import ModelLintCommands

/// The run cache: a check's report is printed again, without reading a version, while everything the run consulted
/// is as it was; anything it consulted changing, appearing or going makes the run afresh.
final class CheckRunCacheTests: XCTestCase {
    /// Temporaries a killed writer left in a cache folder are removed: those of a process that is gone, and any
    /// an hour old; one whose process lives (another run writing now) and a fresh one of an earlier build's
    /// naming are kept, as is everything that is not a temporary.
    func testTemporariesOfKilledWritersAreSwept() throws {
        let folder = try makeTemporaryDirectory(self).appendingPathComponent("check-run")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let finished = Process()
        finished.executableURL = URL(fileURLWithPath: "/bin/sh")
        finished.arguments = ["-c", "exit 0"]
        try finished.run()
        finished.waitUntilExit()
        let names = [
            "gone": ".e1.json.modellint-\(finished.processIdentifier)-Ab12Cd",
            "alive": ".e2.json.modellint-\(getpid())-Ab12Cd",
            "old": ".e3.json.modellint-Ab12Cd",
            "fresh": ".e4.json.modellint-Ab12Cd",
            "entry": "e5.json",
            "lookalike": ".e6.json.modellint-notatemp",
        ]
        for name in names.values { try Data("x".utf8).write(to: folder.appendingPathComponent(name)) }
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: -7200)],
            ofItemAtPath: folder.appendingPathComponent(names["old"]!).path)
        ResultCache.sweepOnce(folder.path)
        let left = Set(try FileManager.default.contentsOfDirectory(atPath: folder.path))
        XCTAssertEqual(left, [names["alive"]!, names["fresh"]!, names["entry"]!, names["lookalike"]!])
    }

    private let fixture = repositoryRoot.appendingPathComponent("Fixtures/Changes/RequiredAttribute.xcdatamodeld")

    /// Every file and folder under `folder`, and `folder`, modified an hour ago: what a run reads is kept only when
    /// nothing changed in the last two seconds.
    private func settle(_ folder: URL) throws {
        let old = Date(timeIntervalSinceNow: -3600)
        for path in try FileManager.default.subpathsOfDirectory(atPath: folder.path) {
            try FileManager.default.setAttributes(
                [.modificationDate: old], ofItemAtPath: folder.appendingPathComponent(path).path)
        }
        try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: folder.path)
    }

    private struct Setup {
        var directory: URL
        var bundle: URL
        var variables: [String: String]
        var entries: URL

        func check(_ extra: [String] = []) -> CommandOutput {
            modellint(["check", "Near.xcdatamodeld", "--format", "json"] + extra, in: directory, variables: variables)
        }

        func keptRuns() -> [URL] {
            ((try? FileManager.default.contentsOfDirectory(atPath: entries.path)) ?? []).sorted().map {
                entries.appendingPathComponent($0)
            }
        }
    }

    private func setUpBundle() throws -> Setup {
        let directory = try makeTemporaryDirectory(self)
        let bundle = directory.appendingPathComponent("Near.xcdatamodeld")
        try FileManager.default.copyItem(at: fixture, to: bundle)
        // A project's folder, as a bundle's is: the search for the project stops here, not at /tmp, which other
        // tests change all the time (a run that listed it would seldom be kept).
        try Data().write(to: directory.appendingPathComponent("Package.swift"))
        try settle(directory)
        let cache = try makeTemporaryDirectory(self)
        return Setup(
            directory: directory, bundle: bundle, variables: ["MODELLINT_CACHE_DIR": cache.path],
            entries: cache.appendingPathComponent("check-run"))
    }

    private func ruleIDs(_ output: CommandOutput) -> [String] {
        jsonDiagnostics(output).map { "\($0["ruleId"]!)" }
    }

    func testASecondRunPrintsTheKeptReportWhileNothingItReadChanged() throws {
        let setup = try setUpBundle()
        let uncached = setup.check(["--no-cache"])
        XCTAssertEqual(setup.keptRuns(), [], "--no-cache keeps nothing")
        XCTAssertEqual(ruleIDs(uncached), ["required-attribute-without-default"])
        let first = setup.check()
        XCTAssertEqual(first.standardOutput, uncached.standardOutput)
        XCTAssertEqual(first.exitCode, 1)
        let kept = try XCTUnwrap(setup.keptRuns().first)
        XCTAssertEqual(setup.keptRuns().count, 1)
        let second = setup.check()
        XCTAssertEqual(second.standardOutput, uncached.standardOutput)
        XCTAssertEqual(second.exitCode, 1)
        // The kept report is what the second run printed: a message altered in the entry comes back.
        let written = try String(contentsOf: kept, encoding: .utf8)
        XCTAssertTrue(written.contains("Thing.rank is required"), written)
        try Data(written.replacingOccurrences(of: "Thing.rank is required", with: "ALTERED").utf8).write(to: kept)
        XCTAssertTrue(setup.check().standardOutput.contains("ALTERED"))
        // Other arguments are another run.
        XCTAssertFalse(
            setup.check(["--disable", "required-attribute-without-default"]).standardOutput.contains("ALTERED"))
    }

    func testAVersionEditedAddedOrRemovedIsReadAfresh() throws {
        let setup = try setUpBundle()
        _ = setup.check()
        let kept = try XCTUnwrap(setup.keptRuns().first)
        func alterKept() throws {
            let written = try String(contentsOf: kept, encoding: .utf8)
            try Data(written.replacingOccurrences(of: "Thing.rank is required", with: "ALTERED").utf8).write(to: kept)
        }
        try alterKept()
        // Edited: the same size and a modification time set back do not hide it (the change time moves).
        let contents = setup.bundle.appendingPathComponent("Near 2.xcdatamodel/contents")
        let text = try String(contentsOf: contents, encoding: .utf8)
        try Data(text.replacingOccurrences(of: "name=\"rank\"", with: "name=\"rang\"").utf8).write(to: contents)
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: contents.path)
        let edited = setup.check()
        XCTAssertFalse(edited.standardOutput.contains("ALTERED"))
        XCTAssertTrue(edited.standardOutput.contains("Thing.rang is required"), edited.standardOutput)
        // A version folder added: the bundle's listing changed. (Nothing the kept run read is touched: a lookup
        // needs nothing settled, so only what changed tells.)
        XCTAssertTrue(setup.check().standardOutput.contains("Thing.rang is required"), "kept once settled")
        try alterKeptEntries(setup)
        XCTAssertTrue(setup.check().standardOutput.contains("ALTERED"))
        try FileManager.default.copyItem(
            at: setup.bundle.appendingPathComponent("Near 2.xcdatamodel"),
            to: setup.bundle.appendingPathComponent("Near 3.xcdatamodel"))
        let added = setup.check()
        XCTAssertFalse(added.standardOutput.contains("ALTERED"))
        XCTAssertTrue(added.standardOutput.contains("\"Near 3\""), added.standardOutput)
        // A file inside a version folder the run read, removed: that folder's listing changed.
        try settle(setup.directory)
        _ = setup.check()
        try alterKeptEntries(setup)
        XCTAssertTrue(setup.check().standardOutput.contains("ALTERED"))
        try FileManager.default.removeItem(at: setup.bundle.appendingPathComponent("Near 3.xcdatamodel/contents"))
        let removed = setup.check()
        XCTAssertFalse(removed.standardOutput.contains("ALTERED"))
    }

    /// Alters every kept run's messages, so a report printed from one is told apart.
    private func alterKeptEntries(_ setup: Setup) throws {
        for entry in setup.keptRuns() {
            let written = try String(contentsOf: entry, encoding: .utf8)
            try Data(written.replacingOccurrences(of: " is required", with: " ALTERED").utf8).write(to: entry)
        }
    }

    func testAConfigurationThatAppearsAboveIsSeen() throws {
        let setup = try setUpBundle()
        XCTAssertEqual(ruleIDs(setup.check()), ["required-attribute-without-default"])
        XCTAssertEqual(setup.keptRuns().count, 1)
        try alterKeptEntries(setup)
        XCTAssertTrue(setup.check().standardOutput.contains("ALTERED"))
        // Looked for and absent when the run was kept: its appearing is a change.
        try Data(#"{"rules": {"required-attribute-without-default": "off"}}"#.utf8).write(
            to: setup.directory.appendingPathComponent(".modellint.json"))
        let configured = setup.check()
        XCTAssertEqual(configured.exitCode, 0, configured.standardError)
        XCTAssertEqual(ruleIDs(configured), [])
    }

    func testAnEntryNotAsWrittenIsIgnoredAndRewritten() throws {
        let setup = try setUpBundle()
        let uncached = setup.check(["--no-cache"])
        _ = setup.check()
        let kept = try XCTUnwrap(setup.keptRuns().first)
        let written = try Data(contentsOf: kept)
        for hostile in [
            "", "{", "[1,2]", #"{"format":1}"#, String(repeating: "[", count: 10_000),
            String(decoding: written, as: UTF8.self).replacingOccurrences(
                of: "\"severity\":\"error\"", with: "\"severity\":\"fatal\""),
            String(decoding: written, as: UTF8.self).replacingOccurrences(of: "\"line\":5", with: "\"line\":\"5\""),
        ] {
            try Data(hostile.utf8).write(to: kept)
            XCTAssertEqual(setup.check().standardOutput, uncached.standardOutput, String(hostile.prefix(40)))
            XCTAssertEqual(try Data(contentsOf: kept), written, "rewritten after \(hostile.prefix(40))")
        }
    }

    /// A file changed in the two seconds before the run read it could be rewritten within the same timestamp
    /// granule without its identity changing (a file system that keeps whole seconds): such a run is kept with what
    /// each such file held, and used again only while it holds the same. Here the granule is simulated: after an
    /// in-place edit the entry's identities are set to the edited files' (as whole-second timestamps would have left
    /// them), and the digest taken when the run read the file still tells the edit.
    func testAFileReadWithinTheTimestampGranuleIsCheckedByContent() throws {
        let setup = try setUpBundle()
        let contents = setup.bundle.appendingPathComponent("Near 2.xcdatamodel/contents")
        modifiedNow(contents.deletingLastPathComponent())
        try Data(try Data(contentsOf: contents)).write(to: contents)
        XCTAssertEqual(ruleIDs(setup.check()), ["required-attribute-without-default"])
        let kept = try XCTUnwrap(setup.keptRuns().first)
        let entry = try String(contentsOf: kept, encoding: .utf8)
        let before = InputLog.identity(of: contents.path)
        XCTAssertTrue(entry.contains(#"[""# + contents.path + #"",""# + before + #"",""#), "kept with a digest")
        // The same size, a name changed: the run must see it.
        let text = try String(contentsOf: contents, encoding: .utf8)
        try Data(text.replacingOccurrences(of: "name=\"rank\"", with: "name=\"rang\"").utf8).write(to: contents)
        var forged = entry.replacingOccurrences(of: before, with: InputLog.identity(of: contents.path))
        let folder = contents.deletingLastPathComponent().path
        forged = forged.replacingOccurrences(
            of: #"[""# + folder + #"",""# + InputLog.identity(of: folder),
            with: #"[""# + folder + #"",""# + InputLog.identity(of: folder))
        try Data(forged.utf8).write(to: kept)
        let after = setup.check().standardOutput
        XCTAssertTrue(after.contains("Thing.rang is required"), after)
        // With the digest left out, as the entries of earlier builds were, the forged entry would have been used.
        try Data(
            forged.replacingOccurrences(of: #"",\"f[0-9a-f]{64}\"\]"#, with: #""]"#, options: .regularExpression).utf8
        )
        .write(to: kept)
        XCTAssertTrue(setup.check().standardOutput.contains("Thing.rank is required"))
    }

    func testRunsThatReadRevisionsOrWriteABaselineAreNotKept() throws {
        let setup = try setUpBundle()
        try commitEverything(setup.directory)
        for extra in [
            ["--write-baseline", "b.json"], ["--against", "HEAD"], ["--released", "HEAD"], ["--pre-commit"],
        ] {
            let run = setup.check(extra)
            XCTAssertTrue([0, 1].contains(run.exitCode), "\(extra): \(run.standardError)")
        }
        XCTAssertEqual(setup.keptRuns(), [])
        _ = setup.check()
        XCTAssertEqual(setup.keptRuns().count, 1, "a plain check in the same repository is kept")
    }

    private func commitEverything(_ directory: URL) throws {
        _ = try git(["init", "-q"], in: directory)
        _ = try git(["add", "-A"], in: directory)
        _ = try git(["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "one"], in: directory)
        try settle(directory)
    }

    /// In a repository, the git commands a run asked are asked again: a file git now lists makes the run afresh.
    func testGitsAnswersAreAskedAgain() throws {
        let setup = try setUpBundle()
        let folder = setup.directory.appendingPathComponent("Notes")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("x".utf8).write(to: folder.appendingPathComponent("a.txt"))
        try commitEverything(setup.directory)
        let uncached = setup.check(["--no-cache"])
        _ = setup.check()
        let kept = try XCTUnwrap(setup.keptRuns().first)
        let entry = try JSONValue.parse(try Data(contentsOf: kept), json5: false)
        let commands = try XCTUnwrap(entry["value"]?["commands"]?.arrayValue)
        XCTAssertFalse(commands.isEmpty, "the run asked git")
        try alterKeptEntries(setup)
        XCTAssertTrue(setup.check().standardOutput.contains("ALTERED"))
        // An untracked file in a folder the run never listed (git listed the files): `ls-files --others` answers
        // otherwise.
        try Data("x".utf8).write(to: folder.appendingPathComponent("b.txt"))
        XCTAssertEqual(setup.check().standardOutput, uncached.standardOutput)
    }

    /// A kept entry is data: a git command it names that is not one of the read-only queries a run makes is never
    /// run (a `-c alias.x=!cmd` would run a shell), and the entry is not used.
    func testAPlantedCommandInAnEntryIsNeverRun() throws {
        let setup = try setUpBundle()
        try commitEverything(setup.directory)
        let uncached = setup.check(["--no-cache"])
        _ = setup.check()
        let kept = try XCTUnwrap(setup.keptRuns().first)
        let marker = setup.directory.appendingPathComponent("ran")
        var text = try String(contentsOf: kept, encoding: .utf8)
        // Every logged command becomes `… -c alias.x=!touch <marker>;: x …`, and the report is forged.
        text = text.replacingOccurrences(
            of: #""--no-replace-objects","#,
            with: #""--no-replace-objects","-c","alias.x=!touch \#(marker.path);:","x","#)
        XCTAssertTrue(text.contains("alias.x=!touch"), "the entry logged git commands")
        text = text.replacingOccurrences(of: #""required-attribute-without-default""#, with: #""forged""#)
        XCTAssertTrue(text.contains(#""forged""#))
        try Data(text.utf8).write(to: kept)
        XCTAssertEqual(setup.check().standardOutput, uncached.standardOutput)
        XCTAssertFalse(FileManager.default.fileExists(atPath: marker.path), "the planted command ran")
        func accepted(_ command: [String]) -> Bool {
            let prefix =
                ["-C", "/repo", "-c", "safe.bareRepository=explicit", "--literal-pathspecs", "--no-pager"]
                + GitRepository.neutralised + ["--git-dir=/repo/.git", "--work-tree=/repo"]
            return GitRepository.isReadOnlyQuery(prefix + command)
        }
        XCTAssertTrue(accepted(["ls-files", "--cached", "--others", "--exclude-standard", "-z"]))
        XCTAssertTrue(accepted(["rev-parse", "--verify", "--quiet", "--end-of-options", "main^{commit}"]))
        XCTAssertTrue(
            accepted([
                "log", "--topo-order", "-p", "--no-ext-diff", "--no-textconv", "--format=%x01",
                String(repeating: "a", count: 40), "--", "-c x",
            ]))
        XCTAssertFalse(accepted(["-c", "alias.x=!sh", "x"]))
        XCTAssertFalse(accepted(["log", "--output=/tmp/x"]))
        XCTAssertFalse(accepted(["log", "--ext-diff", "-p"]))
        XCTAssertFalse(accepted(["config", "core.pager"]))
        XCTAssertFalse(accepted(["rev-parse", "--end-of-options", "a", "b"]))
        XCTAssertFalse(accepted(["log", "HEAD"]), "a revision other than an object id")
        XCTAssertFalse(GitRepository.isReadOnlyQuery(["-C", "/repo", "rev-parse", "--show-toplevel"]))
    }

    /// The cache folder is this user's alone: made 0700 with a 0600 salt that every entry's name mixes in; one that
    /// others may write is not used; a FIFO or another file planted at an entry's name is never opened for writing.
    func testTheCacheFolderIsPrivateAndEntriesAreOnlyThisUsersFiles() throws {
        let root = try makeTemporaryDirectory(self)
        let folder = root.appendingPathComponent("made/cache")
        let cache = ResultCache(folder: folder.path)
        XCTAssertEqual(cache.folder, folder.path)
        let folderMode = try XCTUnwrap(
            try FileManager.default.attributesOfItem(atPath: folder.path)[.posixPermissions] as? Int)
        XCTAssertEqual(folderMode & 0o777, 0o700)
        let salt = folder.appendingPathComponent("salt")
        let saltMode = try XCTUnwrap(
            try FileManager.default.attributesOfItem(atPath: salt.path)[.posixPermissions] as? Int)
        XCTAssertEqual(saltMode & 0o777, 0o600)
        let secret = try String(contentsOf: salt, encoding: .utf8)
        XCTAssertEqual(secret.count, 64)
        // The same folder, the same salt; a salt that is not as written disables the cache.
        XCTAssertEqual(try String(contentsOf: salt, encoding: .utf8), secret)
        _ = ResultCache(folder: folder.path)
        XCTAssertEqual(try String(contentsOf: salt, encoding: .utf8), secret)
        let shared = root.appendingPathComponent("shared")
        try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: shared.path)
        XCTAssertNil(ResultCache(folder: shared.path).folder, "a folder others may write")
        let badSalt = root.appendingPathComponent("bad")
        try FileManager.default.createDirectory(at: badSalt, withIntermediateDirectories: true)
        try Data("not hex".utf8).write(to: badSalt.appendingPathComponent("salt"))
        XCTAssertNil(ResultCache(folder: badSalt.path).folder)
        // A key's entry: stored, read back; then a FIFO in its place is neither read nor written (no hang).
        cache.store(.string("v"), forKey: "k", kind: "probe")
        XCTAssertEqual(cache.value(forKey: "k", kind: "probe"), .string("v"))
        let entries = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("probe").path)
        XCTAssertEqual(entries.count, 1)
        XCTAssertFalse(entries[0].contains(SHA256.hex("k\u{1F}" + ModelLintVersion.current)), "named with the salt")
        let entry = folder.appendingPathComponent("probe/" + entries[0])
        try FileManager.default.removeItem(at: entry)
        XCTAssertEqual(mkfifo(entry.path, 0o600), 0)
        XCTAssertNil(cache.value(forKey: "k", kind: "probe"))
        cache.store(.string("v"), forKey: "k", kind: "probe")
        var info = stat()
        XCTAssertEqual(lstat(entry.path, &info), 0)
        XCTAssertEqual(info.st_mode & S_IFMT, S_IFIFO, "left as it was, never opened")
    }

    /// Every field of every finding survives the entry.
    func testTheKeptReportHoldsEveryField() throws {
        var full = Diagnostic(
            ruleId: "r", severity: .warning, message: "m \u{1}\"\\ é", fix: "f", bundle: "b", file: "f.xml", line: 3,
            column: 4, version: "v2", fromVersion: "v1", entity: "E", property: "p")
        full.mappingModel = "M.xcmappingmodel"
        full.underlyingRuleId = "u"
        full.affectedVersions = ["v0", "v1"]
        full.versions = ["v2", "v3"]
        full.identity = "id"
        full.groupedUnder = "g"
        let bare = Diagnostic(ruleId: "s", severity: .note, message: "", fix: "", bundle: "b", file: "")
        var swiftData = BundleSummary(path: "S", currentVersion: nil, versions: [])
        swiftData.kind = "swiftdata"
        var report = LintReport(
            bundles: [BundleSummary(path: "b", currentVersion: "v3", versions: ["v1", "v2", "v3"]), swiftData],
            diagnostics: [])
        report.diagnostics = [full, bare]
        report.unreadablePaths = ["u"]
        report.outsidePaths = ["o"]
        report.tooLargeSwiftFiles = ["t"]
        let text = CheckRunCache.json(report).serialized(indent: nil)
        let back = try XCTUnwrap(CheckRunCache.report(from: try JSONValue.parse(Data(text.utf8), json5: false)))
        XCTAssertEqual(back.diagnostics, [full, bare])
        XCTAssertEqual(back.bundles, report.bundles)
        XCTAssertEqual(back.unreadablePaths, ["u"])
        XCTAssertEqual(back.outsidePaths, ["o"])
        XCTAssertEqual(back.tooLargeSwiftFiles, ["t"])
    }

    func testTheLogHoldsWhatWasReadListedAndLookedFor() throws {
        let directory = try makeTemporaryDirectory(self)
        let file = directory.appendingPathComponent("a")
        try Data("x".utf8).write(to: file)
        let log = InputLog.start(excluding: directory.appendingPathComponent("cache").path)
        _ = try FileReader.read(file.path, limit: 10)
        _ = FileReader.kind(at: directory.appendingPathComponent("absent").path)
        _ = DirectoryListing.entries(of: directory.path)
        _ = FileReader.kind(at: directory.appendingPathComponent("cache/entry").path)
        let contents = log.finish()
        _ = FileReader.kind(at: directory.appendingPathComponent("after").path)
        XCTAssertEqual(
            contents.paths, [directory.path, file.path, directory.appendingPathComponent("absent").path])
        XCTAssertTrue(contents.isRepeatable)
        XCTAssertTrue(InputLog.identity(of: directory.appendingPathComponent("absent").path).hasPrefix("-"))
        XCTAssertNotEqual(InputLog.identity(of: file.path), InputLog.identity(of: directory.path))
        // A file modified just now is not settled; nor is one whose modification time was set back an hour (its
        // change time is now, and cannot be set back); one modified and changed an hour ago is.
        XCTAssertFalse(InputLog.isSettled(InputLog.identity(of: file.path)))
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: file.path)
        XCTAssertFalse(InputLog.isSettled(InputLog.identity(of: file.path)))
        let hourAgo = Int(Date().timeIntervalSince1970) - 3600
        XCTAssertTrue(InputLog.isSettled("1:2:33188:1:\(hourAgo).0:\(hourAgo).5"))
    }

    /// The identity a kept report is checked against is the one the file had when the run read it: an edit made
    /// during the run, after the read, in place, with the same size and its modification time put back, still
    /// leaves the logged identity different from the file's (the change time moved), so the next run reads again.
    /// The identity taken at the end of the run, as before, was the edited file's: its pre-edit report was kept.
    func testIdentitiesAreTakenWhenTheFileIsRead() throws {
        let directory = try makeTemporaryDirectory(self)
        let file = directory.appendingPathComponent("contents")
        try Data("before".utf8).write(to: file)
        let hourAgo = Date(timeIntervalSinceNow: -3600)
        try FileManager.default.setAttributes([.modificationDate: hourAgo], ofItemAtPath: file.path)
        let log = InputLog.start(excluding: nil)
        let read = InputLog.identity(of: file.path)
        _ = try FileReader.read(file.path, limit: 64)
        Thread.sleep(forTimeInterval: 0.02)
        let handle = try FileHandle(forWritingTo: file)
        try handle.write(contentsOf: Data("edited".utf8))
        try handle.close()
        try FileManager.default.setAttributes([.modificationDate: hourAgo], ofItemAtPath: file.path)
        let contents = log.finish()
        XCTAssertEqual(contents.identities[file.path]?.identity, read)
        XCTAssertNotEqual(InputLog.identity(of: file.path), read)
        // Its change time was recent when it was read: not settled, so what it held then is kept with it, and the
        // edit made since is seen by content even where the identity alone would not tell.
        XCTAssertEqual(contents.identities[file.path]?.digest, "f" + Hex.encode(SHA256.digest(Array("before".utf8))))
        XCTAssertNotEqual(InputLog.contentDigest(of: file.path), contents.identities[file.path]?.digest)
    }

    func testTheExecutableIsTheOneFoundationNames() throws {
        // The kernel's answer on Linux, Foundation's elsewhere: the same file.
        let ours = try XCTUnwrap(ExecutablePath.current)
        let foundations = try XCTUnwrap(Bundle.main.executablePath)
        XCTAssertEqual(
            URL(fileURLWithPath: ours).resolvingSymlinksInPath().path,
            URL(fileURLWithPath: foundations).resolvingSymlinksInPath().path)
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: ours))
    }
}
