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

/// Git cannot be pointed at another history, pathspec magic, or another executable.
final class GitHardeningTests: XCTestCase {
    /// A repository whose `App/Near.xcdatamodeld` was released as v1, then had a shipped version edited.
    private func editedRelease(folder: String = "App") throws -> URL {
        let directory = try makeTemporaryDirectory(self)
        try git(["init", "-q", "-b", "main"], in: directory)
        let app = directory.appendingPathComponent(folder)
        try FileManager.default.createDirectory(at: app, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: repositoryRoot.appendingPathComponent("Fixtures/Near.xcdatamodeld"),
            to: app.appendingPathComponent("Near.xcdatamodeld"))
        try git(["add", "-A"], in: directory)
        try git(["commit", "-q", "-m", "release"], in: directory)
        try git(["tag", "v1"], in: directory)
        let contents = app.appendingPathComponent("Near.xcdatamodeld/Near 19.xcdatamodel/contents")
        try Data(
            try String(contentsOf: contents, encoding: .utf8).replacingOccurrences(
                of: "name=\"latitude\"", with: "name=\"lat\""
            ).utf8
        ).write(to: contents)
        return directory
    }

    private func ruleIds(_ out: CommandOutput) throws -> [String] {
        let json = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(out.standardOutput.utf8)) as? [String: Any], out.standardError)
        return (json["diagnostics"] as? [[String: Any]] ?? []).compactMap { $0["ruleId"] as? String }
    }

    func testAGitDirectoryPlantedBesideTheBundleIsNeverUsed() throws {
        let directory = try editedRelease()
        // The attacker's history, where v1 already has the edit, planted as HEAD, config, objects and refs in App/.
        let fake = try makeTemporaryDirectory(self)
        try git(["init", "-q"], in: fake)
        try FileManager.default.copyItem(
            at: directory.appendingPathComponent("App/Near.xcdatamodeld"),
            to: fake.appendingPathComponent("Near.xcdatamodeld"))
        try git(["add", "-A"], in: fake)
        try git(["commit", "-q", "-m", "evil"], in: fake)
        try git(["tag", "v1"], in: fake)
        for item in ["HEAD", "objects", "refs"] {
            try FileManager.default.copyItem(
                at: fake.appendingPathComponent(".git/\(item)"), to: directory.appendingPathComponent("App/\(item)"))
        }
        try Data("[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tworktree = .\n".utf8).write(
            to: directory.appendingPathComponent("App/config"))
        let out = modellint(["check", "App", "--released", "v1", "--format", "json"], in: directory)
        XCTAssertEqual(out.exitCode, 1, out.standardError)
        XCTAssertTrue(try ruleIds(out).contains("shipped-version-edited"))
        // Run from inside the planted folder, git's discovery meets it first: refused, never used.
        let inside = modellint(["check", ".", "--released", "v1"], in: directory.appendingPathComponent("App"))
        XCTAssertEqual(inside.exitCode, 2)
        XCTAssertTrue(inside.standardError.contains("git found a bare repository"), inside.standardError)
    }

    /// The current-version pointer's history is read by blob ids and sizes first: a pointer rewritten as a 1 MB
    /// file 12 times (12 MB of history) costs a few kilobytes of git output, not the 12 MB a `git log -p` printed
    /// (24 MB counting the removed lines); the pointers that are real still order the versions.
    func testTheCurrentVersionHistoryReadsNoHugePointer() throws {
        let directory = try makeTemporaryDirectory(self)
        try git(["init", "-q", "-b", "main"], in: directory)
        let bundle = try writeBundle(
            in: directory, versions: [("Model", "<entity name=\"A\"/>"), ("Model 2", "<entity name=\"B\"/>")],
            current: "Model")
        let pointer = bundle.appendingPathComponent(".xccurrentversion")
        try git(["add", "-A"], in: directory)
        try git(["commit", "-qm", "first"], in: directory)
        for i in 0..<12 {
            try Data((String(i) + String(repeating: "x", count: 1 << 20)).utf8).write(to: pointer)
            try git(["commit", "-qam", "huge \(i)"], in: directory)
        }
        try Data(RuleExample.currentVersionPlist(naming: "Model 2").utf8).write(to: pointer)
        try git(["commit", "-qam", "second"], in: directory)
        let repository = try GitRepository(containing: directory.path)
        let history = repository.versionHistory(bundleAt: bundle.path)
        XCTAssertEqual(history.currentVersions, ["Model", "Model 2"])
        XCTAssertLessThan(repository.bytesRead, 64 << 10, "bytes of git output read for the history")
        XCTAssertEqual(
            history.skipped,
            ["12 versions of Near.xcdatamodeld/.xccurrentversion over 64 KB (a pointer is a few hundred bytes)"])
    }

    /// What the history left unread is said where the order it decided is: the version-order note.
    func testAnOrderDecidedWithoutPartOfTheHistorySaysSo() throws {
        let directory = try makeTemporaryDirectory(self)
        try git(["init", "-q", "-b", "main"], in: directory)
        let bundle = try writeBundle(
            in: directory, name: "Diary",
            versions: [("Journal 1", "<entity name=\"A\"/>"), ("Notebook 1", "<entity name=\"A\"/>")],
            current: "Journal 1")
        let pointer = bundle.appendingPathComponent(".xccurrentversion")
        try git(["add", "-A"], in: directory)
        try git(["commit", "-qm", "first"], in: directory)
        try Data(String(repeating: "x", count: 100 << 10).utf8).write(to: pointer)
        try git(["commit", "-qam", "huge"], in: directory)
        try Data(RuleExample.currentVersionPlist(naming: "Notebook 1").utf8).write(to: pointer)
        try git(["commit", "-qam", "second"], in: directory)
        let notes = jsonDiagnostics(modellint(["check", "--notes", "--format", "json"], in: directory)).filter {
            $0["ruleId"] as? String == "version-order-inferred"
        }
        XCTAssertEqual(
            notes.map { $0["message"] as? String },
            [
                "the versions of Diary.xcdatamodeld have 2 name stems, ordered Journal 1, then Notebook 1 (the current version Notebook 1 comes last; git's history partly unread: 1 version of Diary.xcdatamodeld/.xccurrentversion over 64 KB (a pointer is a few hundred bytes))"
            ])
    }

    func testFoldersNamedLikePathspecMagicAreLiteral() throws {
        for folder in [":(top)x", ":!x", "*"] {
            let directory = try editedRelease(folder: folder)
            let out = modellint(["check", "./" + folder, "--released", "v1", "--format", "json"], in: directory)
            XCTAssertEqual(out.exitCode, 1, "\(folder): \(out.standardError)")
            XCTAssertTrue(try ruleIds(out).contains("shipped-version-edited"), folder)
        }
    }

    func testACommittedFileNamedGitNeverRuns() throws {
        let directory = try editedRelease()
        let marker = directory.appendingPathComponent("pwned")
        let fake = directory.appendingPathComponent("git")
        try Data("#!/bin/sh\ntouch \(shellQuoted(marker.path))\nexit 1\n".utf8).write(to: fake)
        XCTAssertEqual(chmod(fake.path, 0o755), 0)
        let bin = shellQuoted(try builtExecutable().path)
        // An empty entry and a relative one, both meaning the current folder, ahead of the real git.
        let result = try shell("PATH=\":.:$PATH\" \(bin) check App --released v1 > /dev/null", in: directory)
        XCTAssertEqual(result.code, 1, result.err)
        XCTAssertFalse(FileManager.default.fileExists(atPath: marker.path), "the repository's own git ran")
    }
}

/// git's `-z` listings read as bytes: records split at NUL, a record's fields at spaces and its path after the
/// first tab; a record that is not UTF-8 is left out of `records` and shown with U+FFFD by `recordPaths`.
final class GitListingTests: XCTestCase {
    func testRecordsAreSplitAtNulTabAndSpace() {
        var listing = Data("100644 abc 0\tModel.xcdatamodeld/A.xcdatamodel/contents\0".utf8)
        listing += Data("\0".utf8)  // an empty record
        listing += Data("100644 def 0\tSources/Ünïcode Folder/With\tTab.swift\0".utf8)
        listing += Data("no tab here\0".utf8)
        listing += Data("100644 bad 0\tbad-".utf8) + Data([0xFF, 0xFE]) + Data(".swift\0".utf8)
        listing += Data("100644  0\tdouble space".utf8)  // the last record has no NUL after it
        let records = GitRepository.records(listing)
        XCTAssertEqual(
            records.map(\.path),
            [
                "Model.xcdatamodeld/A.xcdatamodel/contents", "Sources/Ünïcode Folder/With\tTab.swift", "double space",
            ])
        XCTAssertEqual(
            records.map { $0.fields.map(String.init) },
            [["100644", "abc", "0"], ["100644", "def", "0"], ["100644", "0"]])
        XCTAssertEqual(
            GitRepository.recordPaths(listing),
            [
                "Model.xcdatamodeld/A.xcdatamodel/contents", "Sources/Ünïcode Folder/With\tTab.swift",
                "bad-\u{FFFD}\u{FFFD}.swift", "double space",
            ])
    }

    /// Records left out by their bytes are exactly those `hasPrefix` rules out, whatever the prefix's and the
    /// paths' characters; ASCII paths elsewhere are not decoded at all.
    func testRecordsUnderAPrefixAreThoseHasPrefixKeeps() {
        let paths = [
            "M.xcdatamodeld/A.xcdatamodel/contents", "M.xcdatamodeld", "M.xcdatamodeldX/contents", "Other/file.swift",
            "M.xcdatamodeld/\u{301}combining.xcdatamodel/contents", "Caf\u{E9}.xcdatamodeld/A.xcdatamodel/contents",
            "Cafe\u{301}.xcdatamodeld/A.xcdatamodel/contents", "Caf\u{E9}.xcdatamodeld/B\tTab.xcdatamodel/contents",
            "m.xcdatamodeld/lower/contents",
        ]
        let listing = Data(paths.enumerated().map { "100644 \($0.offset) 0\t\($0.element)\0" }.joined().utf8)
        for prefix in ["M.xcdatamodeld/", "Caf\u{E9}.xcdatamodeld/", "Cafe\u{301}.xcdatamodeld/", "Other/"] {
            func kept(_ records: [(fields: [Substring], path: String)]) -> [String] {
                records.filter { $0.path.hasPrefix(prefix) }.map { $0.fields.joined(separator: " ") + "|" + $0.path }
            }
            let filtered = GitRepository.records(listing, possiblyUnder: prefix)
            XCTAssertEqual(kept(filtered), kept(GitRepository.records(listing)), prefix)
            XCTAssertFalse(kept(filtered).isEmpty, prefix)
        }
        XCTAssertEqual(
            GitRepository.records(listing, possiblyUnder: "Other/").map(\.path),
            ["Other/file.swift"] + paths.filter { $0.utf8.contains { $0 >= 0x80 } })
    }

    func testWantedPathsByBytesAndByCharacters() {
        let paths = [
            "App/Model.xcmappingmodel/xcmapping.xml", "App.xcodeproj/project.pbxproj", "Sources/A.swift", ".swift",
            "swift",
            "A.swiftx", "App.xcodeproj/project.pbxproj.orig", "Été/Ünïcode.swift", "xcmapping.xml", "A.Swift",
        ]
        for path in paths {
            XCTAssertEqual(RepositoryFiles.isWanted(ArraySlice(Array(path.utf8))), RepositoryFiles.isWanted(path), path)
        }
        // A prepended character joins the dot into one character: the bytes end in .swift, the characters do not.
        let joined = "A/\u{0600}.swift"
        XCTAssertTrue(RepositoryFiles.isWanted(ArraySlice(Array(joined.utf8))))
        XCTAssertFalse(RepositoryFiles.isWanted(joined))
        XCTAssertEqual(paths.filter { RepositoryFiles.isWanted(ArraySlice(Array($0.utf8))) }.count, 5)
    }

    /// A listed path is kept as its characters decide (wanted, in no skipped folder and in no model bundle or
    /// version, whose names' bytes say what they are), whether its bytes decide alone (ASCII) or not: every path of
    /// this repository's own listing and paths made to be close calls.
    func testListedPathsAreThoseTheCharactersKeep() throws {
        func isModelFolder(_ folder: Substring) -> Bool {
            [".xcdatamodeld", ".xcdatamodel"].contains { suffix in
                folder.utf8.count > suffix.utf8.count
                    && folder.utf8.suffix(suffix.utf8.count).elementsEqual(suffix.utf8)
            }
        }
        func byCharacters(_ path: String) -> String? {
            RepositoryFiles.isWanted(path)
                && !path.split(separator: "/").dropLast().contains {
                    DirectoryWalker.skippedFolders.contains(String($0)) || isModelFolder($0)
                }
                ? path : nil
        }
        var paths = [
            "Pods/A.swift", "a/Pods/b.swift", "a/.build/x.swift", "a/Pods\u{301}/x.swift", "Caf\u{E9}/x.swift",
            "a/node_modules2/a.swift", "node_modules/a.swift", ".git/x.swift",
            "a/DerivedData/p.xcodeproj/project.pbxproj",
            "a/Carthage/M.xcmappingmodel/xcmapping.xml", "Carthage.swift", "a//b.swift", "/abs.swift", "x.swif",
            "A/\u{0600}.swift", "a/\r\n.swift", "a/Pods\r/b.swift", "\u{212A}/Pods/x.swift", "pods/x.swift",
            // Inside a model bundle or version: never part of the app's sources.
            "a/M.xcdatamodeld/x.swift", "M.xcdatamodeld/M 2.xcdatamodel/N.xcmappingmodel/xcmapping.xml",
            "V.xcdatamodel/p.xcodeproj/project.pbxproj", "\u{E9}/M.xcdatamodeld/x.swift", "a/M.xcdatamodeld.swift",
            ".xcdatamodel/x.swift", "a/M.xcdatamodelx/x.swift", "a/M.xcdatamodeld\u{301}/x.swift",
        ]
        if let listing = try? git(["ls-files", "-z"], in: repositoryRoot) {
            paths += listing.split(separator: "\0").map(String.init)
        }
        XCTAssertGreaterThan(paths.count, 100)
        for path in paths {
            XCTAssertEqual(RepositoryFiles.listed(ArraySlice(Array(path.utf8))), byCharacters(path), path)
        }
        XCTAssertEqual(
            paths.prefix(19).compactMap { RepositoryFiles.listed(ArraySlice(Array($0.utf8))) },
            [
                "a/Pods\u{301}/x.swift", "Caf\u{E9}/x.swift", "a/node_modules2/a.swift", "Carthage.swift", "a//b.swift",
                "/abs.swift", "a/\r\n.swift", "a/Pods\r/b.swift", "pods/x.swift",
            ])
        XCTAssertEqual(
            paths[19..<27].compactMap { RepositoryFiles.listed(ArraySlice(Array($0.utf8))) },
            [
                "a/M.xcdatamodeld.swift", ".xcdatamodel/x.swift", "a/M.xcdatamodelx/x.swift",
                "a/M.xcdatamodeld\u{301}/x.swift",
            ])
    }
}
