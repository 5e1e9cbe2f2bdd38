import Foundation
import XCTest
import ModelLintSupport
import ModelLintHistory

/// `--against` and `--released` take a work tree file to be the revision's blob when git's index names that blob and
/// still describes the file; `GitIndex` reads the index for it. Entries are checked against git's own listings
/// (`ls-files --stage` for blob ids, `ls-files --debug` for stat data), in every index version.
final class GitIndexTests: XCTestCase {
    private let files = [
        "B.xcdatamodeld/B.xcdatamodel/contents", "B.xcdatamodeld/B 2.xcdatamodel/contents",
        "B.xcdatamodeld/B 10 \u{E9}t\u{E9}.xcdatamodel/contents", "B.xcdatamodeld/.xccurrentversion",
    ]

    /// A repository with the bundle's files and two outside it, committed, every file dated in the past (so no
    /// entry is racily clean).
    private func repository() throws -> URL {
        let directory = try makeTemporaryDirectory(self)
        for (i, file) in (files + ["A.swift", "C/D.txt"]).enumerated() {
            let url = directory.appendingPathComponent(file)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("<model>\(String(repeating: "x", count: i * 7))</model>\n".utf8).write(to: url)
        }
        _ = try git(["init", "-q"], in: directory)
        _ = try shell("find . -path ./.git -prune -o -type f -exec touch -d @1600000000 {} +", in: directory)
        _ = try git(["add", "-A"], in: directory)
        _ = try git(["commit", "-qm", "one"], in: directory)
        return directory
    }

    private func index(_ directory: URL, hashLength: Int = 20) throws -> GitIndex? {
        GitIndex.parse(
            [UInt8](try Data(contentsOf: directory.appendingPathComponent(".git/index"))), under: "B.xcdatamodeld/",
            hashLength: hashLength)
    }

    /// What git lists for the bundle's files: blob id and stat data, by path.
    private func listed(_ directory: URL) throws -> [ExactName: GitIndex.Entry] {
        var entries: [ExactName: GitIndex.Entry] = [:]
        let stage = try git(["ls-files", "--stage", "-z", "--", "B.xcdatamodeld"], in: directory)
        for record in stage.split(separator: "\0") {
            let parts = record.split(separator: "\t", maxSplits: 1)
            let fields = parts[0].split(separator: " ")
            entries[ExactName(String(parts[1]))] = GitIndex.Entry(
                blobID: String(fields[1]), changed: .init(seconds: 0, nanoseconds: 0),
                modified: .init(seconds: 0, nanoseconds: 0), device: 0, inode: 0, mode: UInt32(fields[0], radix: 8)!,
                user: 0, group: 0, size: 0)
        }
        // --debug: the path, then "  ctime: s:ns", "  mtime: s:ns", "  dev: d\tino: i", "  uid: u\tgid: g",
        // "  size: n\tflags: f".
        let lines = try git(
            ["-c", "core.quotePath=false", "ls-files", "--debug", "--", "B.xcdatamodeld"], in: directory
        )
        .split(separator: "\n").map(String.init)
        var i = 0
        while i + 5 < lines.count + 1, i < lines.count {
            let path = ExactName(lines[i])
            func numbers(_ line: String) -> [UInt32] {
                line.split(whereSeparator: { " \t:".contains($0) }).compactMap { UInt32($0) }
            }
            let (c, m, d, u, s) = (
                numbers(lines[i + 1]), numbers(lines[i + 2]), numbers(lines[i + 3]), numbers(lines[i + 4]),
                numbers(lines[i + 5])
            )
            entries[path]?.changed = .init(seconds: c[0], nanoseconds: c[1])
            entries[path]?.modified = .init(seconds: m[0], nanoseconds: m[1])
            entries[path]?.device = d[0]
            entries[path]?.inode = d[1]
            entries[path]?.user = u[0]
            entries[path]?.group = u[1]
            entries[path]?.size = s[0]
            i += 6
        }
        return entries
    }

    func testEntriesAreWhatGitListsInEveryIndexVersion() throws {
        let directory = try repository()
        let expected = try listed(directory)
        XCTAssertEqual(Set(expected.keys), Set(files.map { ExactName($0) }))
        XCTAssertEqual(expected[ExactName(files[0])]?.modified.seconds, 1_600_000_000)
        for version in ["2", "3", "4"] {
            _ = try git(["update-index", "--index-version", version], in: directory)
            XCTAssertEqual(try index(directory)?.entries, expected, "index version \(version)")
        }
        // A skip-worktree entry (extended flags: version 3) is not one git reads the file for.
        _ = try git(["update-index", "--index-version", "3"], in: directory)
        _ = try git(["update-index", "--skip-worktree", files[1]], in: directory)
        var withoutSkipped = expected
        withoutSkipped[ExactName(files[1])] = nil
        XCTAssertEqual(try index(directory)?.entries, withoutSkipped)
        _ = try git(["update-index", "--no-skip-worktree", files[1]], in: directory)
        // Nor is an assume-unchanged one.
        _ = try git(["update-index", "--assume-unchanged", files[2]], in: directory)
        var withoutAssumed = expected
        withoutAssumed[ExactName(files[2])] = nil
        XCTAssertEqual(try index(directory)?.entries, withoutAssumed)
        // A SHA-256 layout read from a SHA-1 index is refused or lists nothing of it.
        XCTAssertNotEqual(try index(directory, hashLength: 32)?.entries, withoutAssumed)
    }

    func testASplitIndexOrDamagedBytesGiveNoEntriesOrTheSame() throws {
        let directory = try repository()
        let full = try XCTUnwrap(try index(directory))
        let bytes = [UInt8](try Data(contentsOf: directory.appendingPathComponent(".git/index")))
        var refused = 0
        for length in 0..<bytes.count {
            // Cut short: refused, or (cut inside the extensions or checksum) the same entries.
            if let cut = GitIndex.parse(Array(bytes[..<length]), under: "B.xcdatamodeld/", hashLength: 20) {
                XCTAssertEqual(cut.entries, full.entries, "cut at \(length)")
            } else {
                refused += 1
            }
        }
        XCTAssertGreaterThan(refused, bytes.count / 2)
        // Every byte changed in turn: never a crash.
        for offset in 0..<bytes.count {
            var damaged = bytes
            damaged[offset] ^= 0xA5
            _ = GitIndex.parse(damaged, under: "B.xcdatamodeld/", hashLength: 20)
        }
        _ = try git(["update-index", "--split-index"], in: directory)
        XCTAssertNil(try index(directory))
    }

    func testAnEntryDescribesOnlyTheFileAsGitLastReadIt() throws {
        let directory = try repository()
        let path = directory.appendingPathComponent(files[0]).path
        let entry = try XCTUnwrap(try index(directory)?.entries[ExactName(files[0])])
        let (info, modified, changed) = try XCTUnwrap(FileReader.status(path))
        let later = GitIndex.Stamp(seconds: 1_700_000_000, nanoseconds: 0)
        XCTAssertTrue(entry.describes(info, modified: modified, changed: changed, indexModified: later))
        // Written in the same moment as the index (or after): racily clean, not trusted.
        XCTAssertFalse(entry.describes(info, modified: modified, changed: changed, indexModified: entry.modified))
        for change in [
            { (e: inout GitIndex.Entry) in e.size += 1 }, { $0.size = 0 }, { $0.modified.nanoseconds += 1 },
            { $0.changed.seconds += 1 }, { $0.inode += 1 }, { $0.device += 1 }, { $0.user += 1 }, { $0.group += 1 },
            { $0.mode = 0o100755 }, { $0.mode = 0o120000 },
        ] {
            var other = entry
            change(&other)
            XCTAssertFalse(other.describes(info, modified: modified, changed: changed, indexModified: later))
        }
    }

    /// End to end: the versions git's index vouches for are not hashed; an edited one is hashed and found edited,
    /// even with its size kept and its modification time put back (its change time moved).
    func testUnchangedVersionsAreKnownFromTheIndexAndAnEditedOneIsHashed() throws {
        let directory = try repository()
        let repository = try GitRepository(containing: directory.path)
        let commit = try repository.resolve("HEAD")
        let bundle = directory.appendingPathComponent("B.xcdatamodeld").path
        let before = repository.comparedVersions(bundleAt: bundle, since: commit)
        XCTAssertEqual(before.identical, ["B", "B 2", "B 10 \u{E9}t\u{E9}"])
        XCTAssertEqual(before.hashed, 0)
        let edited = directory.appendingPathComponent(files[1])
        var text = try String(contentsOf: edited, encoding: .utf8)
        text = text.replacingOccurrences(of: "x", with: "y")
        try Data(text.utf8).write(to: edited)
        _ = try shell("touch -d @1600000000 " + shellQuoted(edited.path), in: directory)
        let after = repository.comparedVersions(bundleAt: bundle, since: commit)
        XCTAssertEqual(after.identical, ["B", "B 10 \u{E9}t\u{E9}"])
        XCTAssertEqual(after.hashed, 1)
        // Another index named by the environment is not read: every file is hashed.
        setenv("GIT_INDEX_FILE", directory.appendingPathComponent(".git/index").path, 1)
        defer { unsetenv("GIT_INDEX_FILE") }
        XCTAssertEqual(repository.comparedVersions(bundleAt: bundle, since: commit).hashed, 3)
    }

    /// Two versions whose names differ only in normalization are two versions: the one edited is not taken for the
    /// other, in the index or in the versions found identical.
    func testVersionsDifferingOnlyInNormalizationAreComparedApart() throws {
        let directory = try makeTemporaryDirectory(self)
        let nfc = "B.xcdatamodeld/B \u{E9}.xcdatamodel/contents"
        let nfd = "B.xcdatamodeld/B e\u{301}.xcdatamodel/contents"
        for (file, text) in [(nfc, "<model>one</model>\n"), (nfd, "<model>other</model>\n")] {
            let url = directory.appendingPathComponent(file)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        _ = try git(["init", "-q"], in: directory)
        _ = try shell("find . -path ./.git -prune -o -type f -exec touch -d @1600000000 {} +", in: directory)
        _ = try git(["add", "-A"], in: directory)
        _ = try git(["commit", "-qm", "one"], in: directory)
        XCTAssertEqual(try index(directory)?.entries.count, 2)
        try Data("<model>edited</model>\n".utf8).write(to: directory.appendingPathComponent(nfd))
        let repository = try GitRepository(containing: directory.path)
        let compared = repository.comparedVersions(
            bundleAt: directory.appendingPathComponent("B.xcdatamodeld").path, since: try repository.resolve("HEAD"))
        XCTAssertEqual(compared.identical, [ExactName("B \u{E9}")])
        XCTAssertFalse(compared.identical.contains(ExactName("B e\u{301}")))
        XCTAssertEqual(compared.hashed, 1)
    }

    /// What `git ls-files --stage -z --full-name` printed, as bytes.
    private func lsFiles(_ directory: URL) throws -> Data {
        let out = directory.appendingPathComponent("../ls-files-\(UUID().uuidString)").standardizedFileURL
        XCTAssertEqual(
            try shell("git ls-files --stage -z --full-name > " + shellQuoted(out.path), in: directory).code, 0)
        defer { try? FileManager.default.removeItem(at: out) }
        return try Data(contentsOf: out)
    }

    /// A pre-commit run lists the index from its file, without starting git: the listing is git's own, byte for
    /// byte, in every index version and with every kind of entry (a symlink, an executable, a submodule, a name
    /// past the 4,095 bytes the flags can count, skip-worktree, assume-unchanged and intent-to-add entries, the
    /// three stages of a conflict).
    func testTheStageListingIsWhatLsFilesPrintsInEveryIndexVersion() throws {
        let directory = try repository()
        _ = try shell(
            "ln -s B.xcdatamodeld link && printf 'x' > run.sh && chmod +x run.sh && git add link run.sh", in: directory)
        let blob = try git(["hash-object", "-w", "--stdin"], in: directory).trimmingCharacters(
            in: .whitespacesAndNewlines)
        let long = (0..<17).map { _ in String(repeating: "d", count: 250) }.joined(separator: "/") + "/f"
        XCTAssertGreaterThan(long.utf8.count, 0xFFF)
        for cacheinfo in ["160000,\(blob),sub", "100644,\(blob),\(long)"] {
            _ = try git(["update-index", "--add", "--cacheinfo", cacheinfo], in: directory)
        }
        _ = try git(["update-index", "--skip-worktree", files[1]], in: directory)
        _ = try git(["update-index", "--assume-unchanged", files[2]], in: directory)
        try Data("new".utf8).write(to: directory.appendingPathComponent("C/new \u{E9}.txt"))
        _ = try git(["add", "-N", "C/new \u{E9}.txt"], in: directory)
        // Three stages of one path, as a conflicted merge leaves them.
        let stages = (1...3).map { "100644 \(blob) \($0)\tconflict.txt" }.joined(separator: "\n") + "\n"
        try Data(stages.utf8).write(to: directory.appendingPathComponent("../stages.txt").standardizedFileURL)
        XCTAssertEqual(try shell("git update-index --index-info < ../stages.txt", in: directory).code, 0)
        for version in ["2", "3", "4"] {
            _ = try git(["update-index", "--index-version", version], in: directory)
            let expected = try lsFiles(directory)
            XCTAssertTrue(String(decoding: expected, as: UTF8.self).contains(" 3\tconflict.txt\0"))
            XCTAssertEqual(
                GitIndex.stageListing(gitDirectory: directory.appendingPathComponent(".git").path), expected,
                "index version \(version)")
        }
    }

    /// A split or sparse index, a SHA-256 repository and another index named by the environment are git's to list;
    /// every cut of an index is refused or listed whole, and no changed byte crashes the reader.
    func testWhatTheReaderDoesNotKnowIsLeftToGit() throws {
        let directory = try repository()
        let gitDirectory = directory.appendingPathComponent(".git").path
        let expected = try lsFiles(directory)
        XCTAssertEqual(GitIndex.stageListing(gitDirectory: gitDirectory), expected)
        let bytes = [UInt8](try Data(contentsOf: directory.appendingPathComponent(".git/index")))
        for length in 0..<bytes.count {
            let cut = GitIndex.stageListing(Array(bytes[..<length]), hashLength: 20)
            XCTAssertTrue(cut == nil || cut == expected, "cut at \(length)")
        }
        for offset in 0..<bytes.count {
            var damaged = bytes
            damaged[offset] ^= 0xA5
            _ = GitIndex.stageListing(damaged, hashLength: 20)
        }
        XCTAssertNil(GitIndex.stageListing(bytes, hashLength: 32))
        setenv("GIT_INDEX_FILE", directory.appendingPathComponent(".git/index").path, 1)
        XCTAssertNil(GitIndex.stageListing(gitDirectory: gitDirectory))
        unsetenv("GIT_INDEX_FILE")
        _ = try git(["update-index", "--split-index"], in: directory)
        XCTAssertNil(GitIndex.stageListing(gitDirectory: gitDirectory))
        _ = try git(["update-index", "--no-split-index"], in: directory)
        XCTAssertEqual(GitIndex.stageListing(gitDirectory: gitDirectory), expected)
        _ = try git(["sparse-checkout", "set", "--cone", "--sparse-index", "C"], in: directory)
        XCTAssertTrue(String(decoding: try lsFiles(directory), as: UTF8.self).contains("B.xcdatamodeld/"))
        XCTAssertNil(GitIndex.stageListing(gitDirectory: gitDirectory))
        let sha256 = try makeTemporaryDirectory(self)
        _ = try git(["init", "-q", "--object-format=sha256"], in: sha256)
        try Data("x".utf8).write(to: sha256.appendingPathComponent("a.txt"))
        _ = try git(["add", "a.txt"], in: sha256)
        XCTAssertFalse(try lsFiles(sha256).isEmpty)
        XCTAssertNil(GitIndex.stageListing(gitDirectory: sha256.appendingPathComponent(".git").path))
    }
}
