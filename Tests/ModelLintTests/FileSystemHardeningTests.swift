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

/// Special files, symlinks out of the tree, hostile globs, huge files.
final class FileSystemHardeningTests: XCTestCase {
    /// Every kind of file modellint reads, made a FIFO or a link to /dev/zero: each run ends at once (a timeout
    /// guards the test) with a message naming the file, never a wait or a spin.
    func testSpecialFilesAreRefusedWhereverTheyAreRead() throws {
        let bin = shellQuoted(try builtExecutable().path)
        let cases: [(place: String, command: String, expected: String)] = [
            ("Near.xcdatamodeld/Near 1.xcdatamodel/contents", "check", "it is a FIFO, not a regular file"),
            ("Near.xcdatamodeld/.xccurrentversion", "check", "it is a FIFO, not a regular file"),
            ("Maps/A.xcmappingmodel/xcmapping.xml", "check", ""),
            (".modellint.json", "check", "it is a FIFO, not a regular file"),
            ("modellint.lock", "check", "it is a FIFO, not a regular file"),
            ("base.json", "check --baseline base.json", "it is a FIFO, not a regular file"),
        ]
        for special in ["fifo", "zero"] {
            for item in cases {
                let directory = try makeTemporaryDirectory(self)
                try writeBundle(in: directory, versions: [("Near 1", "<entity name=\"A\"/>")], current: "Near 1")
                let path = directory.appendingPathComponent(item.place)
                try FileManager.default.createDirectory(
                    at: path.deletingLastPathComponent(), withIntermediateDirectories: true)
                try? FileManager.default.removeItem(at: path)
                if special == "fifo" {
                    XCTAssertEqual(mkfifo(path.path, 0o644), 0)
                } else {
                    try FileManager.default.createSymbolicLink(atPath: path.path, withDestinationPath: "/dev/zero")
                }
                let result = try shell(
                    "timeout 20 \(bin) \(item.command) > out.txt 2>&1; echo $?; cat out.txt", in: directory)
                let code = Int(result.out.split(separator: "\n").first ?? "") ?? -1
                XCTAssertTrue([0, 1, 2].contains(code), "\(special) \(item.place): exit \(code): \(result.out)")
                var expected =
                    special == "fifo"
                    ? item.expected : item.expected.replacingOccurrences(of: "a FIFO", with: "a character device")
                // A model's contents symlinked out of its bundle is refused before its kind is looked at.
                if special == "zero" && item.place.hasSuffix("/contents") {
                    expected = "it resolves to /dev/zero, outside "
                }
                // A mapping model that cannot be read is no mapping model: nothing to say, and nothing waited for.
                if !expected.isEmpty {
                    XCTAssertTrue(result.out.contains(expected), "\(special) \(item.place): \(result.out)")
                }
            }
        }
    }

    func testASymlinkToTheRootIsNotWalked() throws {
        let directory = try makeTemporaryDirectory(self)
        try writeBundle(in: directory, versions: [("Near 1", "<entity name=\"A\"/>")], current: "Near 1")
        try FileManager.default.createSymbolicLink(
            atPath: directory.appendingPathComponent("x").path, withDestinationPath: "/")
        // A link inside the tree is followed, once.
        try writeBundle(
            in: directory.appendingPathComponent("Real"), name: "Other",
            versions: [("Other 1", "<entity name=\"B\"/>")], current: "Other 1")
        try FileManager.default.createSymbolicLink(
            atPath: directory.appendingPathComponent("Alias").path, withDestinationPath: "Real")
        let walker = DirectoryWalker()
        let found = try BundleFinder(workingDirectory: directory.path, walker: walker).bundles(for: ["."])
        XCTAssertEqual(found.map(\.displayPath), ["Near.xcdatamodeld", "Alias/Other.xcdatamodeld"])
        XCTAssertLessThan(walker.foldersListed, 10)
        let out = modellint(["check"], in: directory)
        XCTAssertEqual(out.standardOutput, "0 errors, 0 warnings, 0 notes in 2 bundles (2 versions)\n")
    }

    func testMappingModelFoldersOutsideTheProjectAreRefused() throws {
        let directory = try makeTemporaryDirectory(self)
        try writeBundle(in: directory, versions: [("Near 1", "<entity name=\"A\"/>")], current: "Near 1")
        try Data("{ \"mappingModels\": [\"/\"] }".utf8).write(to: directory.appendingPathComponent(".modellint.json"))
        let out = modellint(["check"], in: directory)
        XCTAssertEqual(out.exitCode, 2)
        XCTAssertTrue(
            out.standardError.contains("mappingModels[0]: / is outside the folder holding the configuration"),
            out.standardError)
    }

    /// Two bundles in one tree: the tree is listed once for mapping models, not once per bundle.
    func testEachTreeIsSearchedOncePerRun() throws {
        let directory = try makeTemporaryDirectory(self)
        for name in ["A", "B"] {
            try writeBundle(
                in: directory.appendingPathComponent("Models"), name: name,
                versions: [("\(name) 1", "<entity name=\"E\"/>")], current: "\(name) 1")
        }
        for i in 0..<50 {
            try FileManager.default.createDirectory(
                at: directory.appendingPathComponent("Sources/Dir\(i)"), withIntermediateDirectories: true)
        }
        try Data().write(to: directory.appendingPathComponent("Package.swift"))
        let walker = DirectoryWalker()
        let files = RepositoryFiles(walker: walker)
        _ = files.files(near: directory.appendingPathComponent("Models/A.xcdatamodeld").path)
        let once = walker.foldersListed
        _ = files.files(near: directory.appendingPathComponent("Models/B.xcdatamodeld").path)
        XCTAssertEqual(walker.foldersListed, once)
        XCTAssertGreaterThan(once, 50)
    }

    /// Outside git, the walk for a bundle's neighbours never enters a model bundle or version: Xcode compiles each
    /// as one file, so what is inside is no mapping model, project or source of the app (as in a git listing).
    func testTheWalkForNeighboursSkipsModelBundles() throws {
        let directory = try makeTemporaryDirectory(self)
        let models = directory.appendingPathComponent("Models")
        try writeBundle(
            in: models, name: "M", versions: [("M 1", "<entity name=\"E\"/>"), ("M 2", "<entity name=\"E\"/>")],
            current: "M 2")
        try Data().write(to: directory.appendingPathComponent("Package.swift"))
        let inside = [
            "M.xcdatamodeld/Stray.swift", "M.xcdatamodeld/M 1.xcdatamodel/N.xcmappingmodel/xcmapping.xml",
            "M.xcdatamodeld/P.xcodeproj/project.pbxproj",
        ]
        let beside = ["Code.swift", "M1toM2.xcmappingmodel/xcmapping.xml"]
        for file in inside + beside {
            let url = models.appendingPathComponent(file)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("x".utf8).write(to: url)
        }
        let walker = DirectoryWalker()
        let found = RepositoryFiles(walker: walker).files(near: models.appendingPathComponent("M.xcdatamodeld").path)
        let root = (PathTools.realPath(directory.path) ?? directory.path) + "/"
        XCTAssertEqual(
            found.map { $0.hasPrefix(root) ? String($0.dropFirst(root.count)) : $0 }.sorted(),
            ["Models/Code.swift", "Models/M1toM2.xcmappingmodel/xcmapping.xml", "Package.swift"])
        // The root, Models and the mapping model's folder: neither the bundle nor a version is listed.
        XCTAssertEqual(walker.foldersListed, 3)
    }

    func testGlobsAreLinearAndMatchAsBefore() {
        let hostile = String(repeating: "**a", count: 30) + "b"
        XCTAssertFalse(Glob.matches(pattern: hostile, path: String(repeating: "a", count: 200)))
        XCTAssertTrue(Glob.matches(pattern: hostile, path: String(repeating: "a", count: 30) + "b"))
        // The same answers as the backtracking matcher it replaced, on random patterns and paths.
        var random = SeededGenerator(seed: 42)
        let alphabet: [Character] = ["a", "b", "/", "*", "?"]
        for _ in 0..<20_000 {
            let pattern = String(
                (0..<Int.random(in: 0...8, using: &random)).map { _ in alphabet.randomElement(using: &random)! })
            let path = String(
                (0..<Int.random(in: 0...8, using: &random)).map { _ in
                    ["a", "b", "/"].randomElement(using: &random)! as Character
                })
            XCTAssertEqual(
                Glob.matches(pattern: pattern, path: path), Self.backtracking(pattern, path), "\(pattern) vs \(path)")
        }
    }

    /// The matcher before, kept as the oracle: same semantics, exponential on hostile input.
    static func backtracking(_ pattern: String, _ path: String) -> Bool {
        let p = Array(pattern)
        let s = Array(path)
        var memo: [Int: Bool] = [:]
        func match(_ i: Int, _ j: Int) -> Bool {
            let key = i * (s.count + 1) + j
            if let cached = memo[key] { return cached }
            let result: Bool
            if i == p.count {
                result = j == s.count || s[j] == "/"
            } else if p[i] == "*" && i + 1 < p.count && p[i + 1] == "*" {
                var next = i + 2
                if next < p.count && p[next] == "/" { next += 1 }
                result = (j...s.count).contains { match(next, $0) }
            } else if p[i] == "*" {
                var k = j
                var found = match(i + 1, k)
                while !found && k < s.count && s[k] != "/" {
                    k += 1
                    found = match(i + 1, k)
                }
                result = found
            } else if j < s.count && (p[i] == "?" ? s[j] != "/" : p[i] == s[j]) {
                result = match(i + 1, j + 1)
            } else {
                result = false
            }
            memo[key] = result
            return result
        }
        return match(0, 0)
    }

    func testAContentsFileOverTheCapIsAFindingNamingItsSize() throws {
        let directory = try makeTemporaryDirectory(self)
        let bundle = try writeBundle(in: directory, versions: [("Near 1", "<entity name=\"A\"/>")], current: "Near 1")
        let contents = bundle.appendingPathComponent("Near 1.xcdatamodel/contents")
        // A sparse file: 65 MB on paper, nothing on disk, and never read.
        XCTAssertEqual(truncate(contents.path, off_t(65 << 20)), 0)
        let found = lint(bundle)
        XCTAssertEqual(found.map(\.ruleId), ["malformed-contents"])
        XCTAssertEqual(
            found.first?.message,
            "Near 1 cannot be read as a Core Data model: it is 65 MB, over modellint's limit of 64 MB for this kind of file. The version is skipped, and so is every comparison with it"
        )
    }

    /// The contents reader's bytes are the file's bytes, and its refusals the data reader's, word for word.
    func testReadingBytesReadsWhatReadingDataReads() throws {
        let contents = fixtureAndCorpusBundles().flatMap { bundle in
            ((try? FileManager.default.contentsOfDirectory(atPath: bundle.path)) ?? []).sorted()
                .filter { $0.hasSuffix(".xcdatamodel") }
                .map { bundle.appendingPathComponent($0).appendingPathComponent("contents").path }
        }
        XCTAssertGreaterThan(contents.count, 20)
        for path in contents {
            guard let data = try? FileReader.read(path, limit: FileReader.Limit.contents) else { continue }
            XCTAssertEqual(try FileReader.readBytes(path, limit: FileReader.Limit.contents), [UInt8](data), path)
        }
        let directory = try makeTemporaryDirectory(self)
        let empty = directory.appendingPathComponent("empty").path
        let small = directory.appendingPathComponent("small").path
        XCTAssertTrue(FileManager.default.createFile(atPath: empty, contents: Data()))
        XCTAssertTrue(FileManager.default.createFile(atPath: small, contents: Data("<model/>".utf8)))
        XCTAssertEqual(try FileReader.readBytes(empty, limit: 10), [])
        XCTAssertEqual(try FileReader.readBytes(small, limit: 8), Array("<model/>".utf8))
        for (path, limit) in [(small, 7), (directory.path, 10), (directory.appendingPathComponent("none").path, 10)] {
            var dataError: FileReader.ReadError?
            var bytesError: FileReader.ReadError?
            XCTAssertThrowsError(try FileReader.read(path, limit: limit)) { dataError = $0 as? FileReader.ReadError }
            XCTAssertThrowsError(try FileReader.readBytes(path, limit: limit)) {
                bytesError = $0 as? FileReader.ReadError
            }
            XCTAssertNotNil(bytesError, path)
            XCTAssertEqual(bytesError, dataError, path)
        }
    }
}
