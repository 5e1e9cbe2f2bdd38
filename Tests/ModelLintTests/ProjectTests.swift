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

/// Xcode projects: version groups read from `project.pbxproj` and judged against the bundle.
final class ProjectTests: XCTestCase {
    func testTheCoreDataPlusProjectsVersionGroups() throws {
        let root = try requireCorpus().appendingPathComponent("alemar11__CoreDataPlus")
        let project = try XcodeProject.read(
            path: root.appendingPathComponent("CoreDataPlus.xcodeproj/project.pbxproj").path, displayPath: "p")
        XCTAssertEqual(
            project.versionGroups.map {
                "\($0.path) \($0.children.sorted()) \($0.currentVersion ?? "-") \($0.isCompiled) @\($0.line ?? 0)"
            }.sorted(),
            [
                "\(try XCTUnwrap(project.group(forBundleAt: "Tests/Resources/SampleModel/SampleModel.xcdatamodeld")).path) [\"SampleModel.xcdatamodel\", \"SampleModel2.xcdatamodel\", \"SampleModel3.xcdatamodel\"] SampleModel.xcdatamodel true @1244",
                "\(try XCTUnwrap(project.group(forBundleAt: "Tests/Resources/SampleModel3/SampleModel3.xcdatamodeld")).path) [\"SampleModel3.xcdatamodel\", \"SampleModel3_v2.xcdatamodel\", \"SampleModel3_v3.xcdatamodel\"] SampleModel3.xcdatamodel true @1232",
            ].sorted())
        // check finds the project from the bundle and it agrees: no project finding.
        let out = modellint(["check", "Tests/Resources", "--format", "json"], in: root)
        XCTAssertFalse(out.standardOutput.contains("\"ruleId\": \"project-"), out.standardOutput)
    }

    /// A copy of Near with an Xcode project beside it, as RuleExample writes one.
    private func app(_ project: RuleExample.Project, configuration: String? = nil) throws -> URL {
        let directory = try makeTemporaryDirectory(self)
        try FileManager.default.copyItem(
            at: repositoryRoot.appendingPathComponent("Fixtures/Near.xcdatamodeld"),
            to: directory.appendingPathComponent("Near.xcdatamodeld"))
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("Near.xcodeproj"), withIntermediateDirectories: true)
        try Data(project.text.utf8).write(to: directory.appendingPathComponent("Near.xcodeproj/project.pbxproj"))
        if let configuration {
            try Data(configuration.utf8).write(to: directory.appendingPathComponent(".modellint.json"))
        }
        return directory
    }

    private func findings(_ directory: URL) -> [String] {
        let out = modellint(["check", "--format", "json"], in: directory)
        return jsonDiagnostics(out).map {
            "\($0["ruleId"]!) \($0["severity"]!) \($0["file"]!):\($0["line"] as? Int ?? 0) \($0["message"]!)"
        }
    }

    func testEachProjectRuleOnAProjectThatDisagrees() throws {
        let all = ["Near 18.xcdatamodel", "Near 19.xcdatamodel", "Near 20.xcdatamodel"]
        XCTAssertEqual(
            findings(try app(.init(children: all, current: "Near 20.xcdatamodel"))), [], "a project that agrees")
        XCTAssertEqual(
            findings(try app(.init(children: all, current: "Near 19.xcdatamodel"))),
            [
                "project-current-version-mismatch error Near.xcodeproj/project.pbxproj:14 Near.xcodeproj/project.pbxproj makes Near 19.xcdatamodel the current version of Near.xcdatamodeld, but its .xccurrentversion names Near 20.xcdatamodel: which model ships depends on the tool that builds it"
            ])
        XCTAssertEqual(
            findings(
                try app(
                    .init(
                        children: ["Near 18.xcdatamodel", "Near 19.xcdatamodel", "Near 21.xcdatamodel"], current: nil,
                        compiled: false))),
            [
                "project-bundle-not-compiled warning Near.xcodeproj/project.pbxproj:13 Near.xcodeproj/project.pbxproj references Near.xcdatamodeld but no target compiles it (it is in no Sources build phase): no .momd ships",
                "project-version-stale warning Near.xcodeproj/project.pbxproj:13 Near.xcodeproj/project.pbxproj lists Near 21.xcdatamodel in Near.xcdatamodeld, which has no such folder",
                "project-version-missing error Near.xcdatamodeld/Near 20.xcdatamodel:0 Near 20.xcdatamodel is not in Near.xcodeproj/project.pbxproj's version group for Near.xcdatamodeld: the build does not compile it",
            ])
    }

    /// A locked version deleted while the project still lists it: the project's stale entry is the deletion's
    /// consequence, listed under it in the text report (`groupedUnder` in JSON); both stay findings.
    func testAStaleProjectEntryIsGroupedUnderTheDeletedShippedVersion() throws {
        let all = ["Near 18.xcdatamodel", "Near 19.xcdatamodel", "Near 20.xcdatamodel"]
        let directory = try app(.init(children: all, current: "Near 20.xcdatamodel"))
        XCTAssertEqual(modellint(["lock"], in: directory).exitCode, 0)
        try FileManager.default.removeItem(
            at: directory.appendingPathComponent("Near.xcdatamodeld/Near 19.xcdatamodel"))
        let diagnostics = jsonDiagnostics(modellint(["check", "--format", "json"], in: directory))
        XCTAssertEqual(
            diagnostics.map { "\($0["ruleId"]!) \($0["groupedUnder"] as? String ?? "-")" },
            ["shipped-version-deleted -", "project-version-stale shipped-version-deleted"])
        let text = modellint(["check"], in: directory).standardOutput.split(separator: "\n")
        XCTAssertEqual(
            text.filter { $0.contains("[project-version-stale]") }.map { $0.hasPrefix("    ") }, [true], "\(text)")
    }

    /// A merge that dropped a version's file reference object but kept its id in the group's children: the finding
    /// names the dangling reference.
    func testADanglingFileReferenceIsNamed() throws {
        let all = ["Near 18.xcdatamodel", "Near 19.xcdatamodel", "Near 20.xcdatamodel"]
        let directory = try app(.init(children: all, current: "Near 19.xcdatamodel"))
        let file = directory.appendingPathComponent("Near.xcodeproj/project.pbxproj")
        let text = try String(contentsOf: file, encoding: .utf8)
        let kept = text.split(separator: "\n", omittingEmptySubsequences: false).filter {
            !($0.contains("isa = PBXFileReference") && $0.contains("Near 20.xcdatamodel"))
        }
        XCTAssertEqual(kept.count, text.split(separator: "\n", omittingEmptySubsequences: false).count - 1)
        try Data(kept.joined(separator: "\n").utf8).write(to: file)
        XCTAssertEqual(
            findings(directory).filter { $0.hasPrefix("project-version-missing") },
            [
                "project-version-missing error Near.xcdatamodeld/Near 20.xcdatamodel:0 Near 20.xcdatamodel is not in Near.xcodeproj/project.pbxproj's version group for Near.xcdatamodeld: the build does not compile it; the group lists a file reference the project never defines (0000000000000000000A000C), a merge that dropped its object"
            ])
    }

    func testAnEmptyProjectsListTurnsTheChecksOff() throws {
        let directory = try app(
            .init(children: ["Near 18.xcdatamodel"], current: "Near 18.xcdatamodel"),
            configuration: #"{"projects": []}"#)
        XCTAssertEqual(findings(directory), [])
    }
}

/// The app's code and project generator: literals only.
final class SourceReferenceTests: XCTestCase {
    func testStagedMigrationLiteralsAndAHardCodedCurrentVersion() throws {
        let directory = try makeTemporaryDirectory(self)
        try FileManager.default.copyItem(
            at: repositoryRoot.appendingPathComponent("Fixtures/Near.xcdatamodeld"),
            to: directory.appendingPathComponent("Near.xcdatamodeld"))
        // Near 19's checksum, from Scripts/reference-hashes.py (independent of modellint).
        // One string per line, quotes escaped: this test file itself holds no literal modellint would read.
        let stages = [
            "let v19 = NSManagedObjectModelReference(model: model19, versionChecksum: \"HMRVV0qOGThACI+hYGEe1DXi3JXBap5wRItai/8jq9Y=\")",
            "let old = NSManagedObjectModelReference(model: model18, versionChecksum: \"AAAAV0qOGThACI+hYGEe1DXi3JXBap5wRItai/8jq9Y=\")",
            "let url = bundle.url(forResource: \"Near 20\", withExtension: \"mom\")",
            "let gone = bundle.url(forResource: \"Near 17\", withExtension: \"mom\")",
            "let computed = bundle.url(forResource: name, withExtension: \"mom\")",
            "let sample = \"fuzz.mom\"",
        ].joined(separator: "\n")
        try Data(stages.utf8).write(to: directory.appendingPathComponent("Stages.swift"))
        try Data(
            "let project = Project(coreDataModels: [.coreDataModel(\"Near.xcdatamodeld\", currentVersion: \"Near 19\")])\n"
                .utf8
        )
        .write(to: directory.appendingPathComponent("Project.swift"))
        // A project folder, so the search outside git starts here.
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("App.xcodeproj"), withIntermediateDirectories: true)
        let out = modellint(["check", "--format", "json"], in: directory)
        XCTAssertEqual(out.exitCode, 1)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(out.standardOutput.utf8)) as? [String: Any])
        let found = (json["diagnostics"] as? [[String: Any]] ?? []).map {
            "\($0["ruleId"]!) \($0["file"]!):\($0["line"] as? Int ?? 0):\($0["column"] as? Int ?? 0) \($0["message"]!)"
        }
        XCTAssertEqual(
            found,
            [
                "staged-migration-unknown-checksum Stages.swift:2:57 versionChecksum \"AAAAV0qOGThACI+hYGEe1DXi3JXBap5wRItai/8jq9Y=\" is the checksum of no version (3 known): staged migration meets an unknown model version (134504)",
                "staged-migration-unknown-version Stages.swift:4:23 Near 17.mom is not a compiled version of Near.xcdatamodeld: loading it finds nothing",
                "generated-project-current-version Project.swift:1:41 Project.swift hard-codes Near 19 as the current version of Near.xcdatamodeld, but its .xccurrentversion names Near 20: generated projects ship Near 19",
            ], "the known checksum, Near 20, the computed name and a name in no version naming are not findings")
    }
}

/// `new-version` with an Xcode project: the project gets the version too, every other byte unchanged.
final class NewVersionProjectTests: XCTestCase {
    func testNewVersionAddsTheVersionToTheProjectChangingNothingElse() throws {
        let directory = try makeTemporaryDirectory(self)
        try FileManager.default.copyItem(
            at: repositoryRoot.appendingPathComponent("Fixtures/Near.xcdatamodeld"),
            to: directory.appendingPathComponent("Near.xcdatamodeld"))
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("Near.xcodeproj"), withIntermediateDirectories: true)
        let pbxproj = directory.appendingPathComponent("Near.xcodeproj/project.pbxproj")
        let original = RuleExample.Project(
            children: ["Near 18.xcdatamodel", "Near 19.xcdatamodel", "Near 20.xcdatamodel"],
            current: "Near 20.xcdatamodel"
        ).text
        try Data(original.utf8).write(to: pbxproj)

        let out = modellint(["new-version", "Near.xcdatamodeld"], in: directory)
        XCTAssertEqual(out.exitCode, 0, out.standardError)
        XCTAssertTrue(
            out.standardOutput.hasSuffix(
                "updated Near.xcodeproj/project.pbxproj: added Near 21.xcdatamodel to the version group and made it the current version.\n"
            ), out.standardOutput)
        let edited = try String(contentsOf: pbxproj, encoding: .utf8)
        let newLine = try XCTUnwrap(
            edited.components(separatedBy: "\n").first {
                $0.contains("/* Near 21.xcdatamodel */ = {isa = PBXFileReference")
            })
        let newID = String(newLine.trimmingCharacters(in: .whitespaces).prefix(24))
        XCTAssertNotNil(newID.range(of: "^[0-9A-F]{24}$", options: .regularExpression), newID)
        XCTAssertFalse(original.contains(newID))
        // The expected file, edited by hand from the original: three lines added or changed.
        let oldID = String(format: "%024X", 0xA0000 + 12)
        var lines = original.components(separatedBy: "\n")
        let ref = try XCTUnwrap(
            lines.firstIndex { $0.hasPrefix("\t\t\(oldID) /* Near 20.xcdatamodel */ = {isa = PBXFileReference") })
        lines.insert(
            "\t\t\(newID) /* Near 21.xcdatamodel */ = {isa = PBXFileReference; lastKnownFileType = wrapper.xcdatamodel; path = \"Near 21.xcdatamodel\"; sourceTree = \"<group>\"; };",
            at: ref + 1)
        let child = try XCTUnwrap(lines.firstIndex { $0 == "\t\t\t\t\(oldID) /* Near 20.xcdatamodel */," })
        lines.insert("\t\t\t\t\(newID) /* Near 21.xcdatamodel */,", at: child + 1)
        let pointer = try XCTUnwrap(
            lines.firstIndex { $0 == "\t\t\tcurrentVersion = \(oldID) /* Near 20.xcdatamodel */;" })
        lines[pointer] = "\t\t\tcurrentVersion = \(newID) /* Near 21.xcdatamodel */;"
        XCTAssertEqual(edited, lines.joined(separator: "\n"))
        // And check agrees with the project afterwards.
        let after = modellint(["check", "--format", "json"], in: directory).standardOutput
        XCTAssertFalse(after.contains("\"ruleId\": \"project-"), after)
    }

    func testAGeneratedProjectIsLeftToItsGenerator() throws {
        let directory = try makeTemporaryDirectory(self)
        try FileManager.default.copyItem(
            at: repositoryRoot.appendingPathComponent("Fixtures/Near.xcdatamodeld"),
            to: directory.appendingPathComponent("Near.xcdatamodeld"))
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("Near.xcodeproj"), withIntermediateDirectories: true)
        let original = RuleExample.Project(
            children: ["Near 18.xcdatamodel", "Near 19.xcdatamodel", "Near 20.xcdatamodel"],
            current: "Near 20.xcdatamodel"
        ).text
        try Data(original.utf8).write(to: directory.appendingPathComponent("Near.xcodeproj/project.pbxproj"))
        try Data("name: Near\n".utf8).write(to: directory.appendingPathComponent("project.yml"))
        let out = modellint(["new-version", "Near.xcdatamodeld"], in: directory)
        XCTAssertEqual(out.exitCode, 0)
        XCTAssertTrue(
            out.standardOutput.hasSuffix(
                "Near.xcodeproj/project.pbxproj is generated: regenerate it (XcodeGen, Tuist), or the build keeps using the old current version.\n"
            ), out.standardOutput)
        XCTAssertEqual(
            try String(contentsOf: directory.appendingPathComponent("Near.xcodeproj/project.pbxproj"), encoding: .utf8),
            original)
    }
}

/// The project file reader against Foundation's as the oracle: the same values from every project here, and
/// refusals, never traps, for broken ones (it replaced Foundation's, 330 ms on 1.5 MB).
final class ProjectFileParserTests: XCTestCase {
    private func assertSameAsFoundation(
        _ text: String, _ name: String, file: StaticString = #filePath, line: UInt = #line
    )
        throws
    {
        let data = Data(text.utf8)
        let ours = try ProjectFileParser.parse(data)
        let foundation = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        XCTAssertTrue(
            NSDictionary(dictionary: ours as? [String: Any] ?? [:]).isEqual(foundation as? [String: Any] ?? [:]),
            "\(name): \(ours) != \(foundation)", file: file, line: line)
    }

    func testEveryProjectParsesAsFoundationParsesIt() throws {
        var projects: [(String, String)] = []
        let corpus = repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus")
        for root in [repositoryRoot.appendingPathComponent("Fixtures"), corpus] {
            for path in (try? FileManager.default.subpathsOfDirectory(atPath: root.path)) ?? []
            where path.hasSuffix(".xcodeproj/project.pbxproj") {
                projects.append((path, try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)))
            }
        }
        for rule in RuleRegistry.descriptions {
            for (i, example) in rule.examples.enumerated() {
                if let project = example.project { projects.append(("\(rule.id) example \(i + 1)", project.text)) }
            }
        }
        XCTAssertGreaterThan(projects.count, 5)
        for (name, text) in projects {
            try assertSameAsFoundation(text, name)
            // The objects table keeps exactly those fields of every object, as the general reader has them.
            let data = Data(text.utf8)
            let general = try XCTUnwrap(
                (try ProjectFileParser.parse(data) as? [String: Any])?["objects"] as? [String: Any], name)
            XCTAssertEqual(
                try ProjectFileParser.objects(data),
                general.compactMapValues { ($0 as? [String: Any]).map(ProjectObject.init) },
                name)
        }
        // What Xcode's writer does at the edges: escapes, comments, quotes of both kinds, nesting.
        try assertSameAsFoundation(
            #"""
            // !$*UTF8*$!
            {
            	a = "tab\there \"quoted\" back\\slash new\nline";
            	b = ABC123 /* comment */;
            	c = (x, "y z", /* c */ w,);
            	d = { e = { f = (); }; g = "caf\U00e9"; };
            	h = 'single';
            	i = path/to/file.swift;
            	"quoted key" = "";
            }
            """#, "edges")
        // A comment glued to a word (which Foundation refuses) ends the word.
        let glued = try XCTUnwrap(ProjectFileParser.parse(Data("{ b = ABC123/* c */; }".utf8)) as? [String: Any])
        XCTAssertEqual(glued["b"] as? String, "ABC123")
    }

    func testBrokenProjectsAreRefusedWithTheirOffset() {
        let cases: [(String, String)] = [
            ("{ a = b; ", "an unterminated dictionary at byte 9"),
            ("{ a = \"b; }", "an unterminated string at byte 6"),
            ("{ a = b /* c; }", "an unterminated comment at byte 8"),
            ("{ a = (b c); }", "expected , or ) at byte 9"),
            ("{ a b; }", "expected = at byte 4"),
            ("{ a = b; } }", "text after the top-level value at byte 11"),
            (String(repeating: "(", count: 100), "nesting deeper than 64 levels at byte 64"),
        ]
        for (text, message) in cases {
            XCTAssertThrowsError(try ProjectFileParser.parse(Data(text.utf8)), text) { error in
                XCTAssertEqual("\(error)", message, text)
            }
        }
        // The objects table reads a list of ids with the same separators as every other array.
        let unseparated = "{ objects = { A = { isa = PBXGroup; children = (b c); }; }; }"
        XCTAssertThrowsError(try ProjectFileParser.objects(Data(unseparated.utf8))) { error in
            XCTAssertEqual("\(error)", "expected , or ) at byte 50")
        }
    }
}

/// A big project's reading is kept in the user's cache folder and used while the file is unchanged (the
/// pre-commit budget; the result cache). Every test here uses its own cache folder.
final class ResultCacheTests: XCTestCase {
    private func project(in directory: URL, children: [String]) throws -> String {
        let file = directory.appendingPathComponent("App.xcodeproj/project.pbxproj")
        try FileManager.default.createDirectory(
            at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(RuleExample.Project(children: children, current: children.last).text.utf8).write(to: file)
        // Older than the two seconds within which a file is never stored.
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: -60)], ofItemAtPath: file.path)
        return file.path
    }

    private func entries(_ folder: URL) -> [URL] {
        let projects = folder.appendingPathComponent("projects")
        return ((try? FileManager.default.contentsOfDirectory(atPath: projects.path)) ?? []).map {
            projects.appendingPathComponent($0)
        }
    }

    func testAnUnchangedProjectIsReadFromTheCacheAndAChangedOneAfresh() throws {
        let directory = try makeTemporaryDirectory(self)
        let folder = directory.appendingPathComponent("cache")
        let cache = ResultCache(folder: folder.path)
        let file = try project(in: directory, children: ["Near 18.xcdatamodel", "Near 19.xcdatamodel"])
        let fresh = try XcodeProject.read(path: file, displayPath: "p", cache: cache)
        XCTAssertEqual(fresh.versionGroups, try XcodeProject.read(path: file, displayPath: "p").versionGroups)
        XCTAssertEqual(entries(folder).count, 1)
        // The entry is what the next run gets: altered by hand, the alteration comes back (so it was used).
        let entry = entries(folder)[0]
        let stored = try String(contentsOf: entry, encoding: .utf8)
        try Data(stored.replacingOccurrences(of: "Near 19.xcdatamodel", with: "Cached.xcdatamodel").utf8).write(
            to: entry)
        XCTAssertEqual(
            try XcodeProject.read(path: file, displayPath: "shown", cache: cache).versionGroups.first?.children,
            ["Near 18.xcdatamodel", "Cached.xcdatamodel"])
        XCTAssertEqual(try XcodeProject.read(path: file, displayPath: "shown", cache: cache).path, "shown")
        // The file changed (a version added): read afresh, and stored again.
        _ = try project(in: directory, children: ["Near 18.xcdatamodel", "Near 19.xcdatamodel", "Near 20.xcdatamodel"])
        XCTAssertEqual(
            try XcodeProject.read(path: file, displayPath: "p", cache: cache).versionGroups.first?.children,
            ["Near 18.xcdatamodel", "Near 19.xcdatamodel", "Near 20.xcdatamodel"])
        XCTAssertTrue(try String(contentsOf: entry, encoding: .utf8).contains("Near 20.xcdatamodel"))
    }

    func testACorruptEntryIsIgnoredAndReplacedAndARecentEditIsNotStored() throws {
        let directory = try makeTemporaryDirectory(self)
        let folder = directory.appendingPathComponent("cache")
        let cache = ResultCache(folder: folder.path)
        let file = try project(in: directory, children: ["Near 18.xcdatamodel"])
        let expected = try XcodeProject.read(path: file, displayPath: "p").versionGroups
        _ = try XcodeProject.read(path: file, displayPath: "p", cache: cache)
        for hostile in ["", "{", "[1,2]", #"{"format": 1, "tool": "x"}"#, String(repeating: "[", count: 10_000)] {
            try Data(hostile.utf8).write(to: entries(folder)[0])
            XCTAssertEqual(try XcodeProject.read(path: file, displayPath: "p", cache: cache).versionGroups, expected)
            XCTAssertNotNil(cache.value(for: file, kind: "projects"), "rewritten after \(hostile.prefix(10))")
        }
        // Modified just now: read, never stored (an edit within the clock's resolution must not be mistaken for it).
        let recent = try makeTemporaryDirectory(self)
        let recentFolder = recent.appendingPathComponent("cache")
        let now = recent.appendingPathComponent("project.pbxproj")
        try FileManager.default.copyItem(atPath: file, toPath: now.path)
        _ = try XcodeProject.read(path: now.path, displayPath: "p", cache: ResultCache(folder: recentFolder.path))
        XCTAssertEqual(entries(recentFolder), [])
    }

    func testCheckKeepsItsCacheInTheCacheFolderAndNoCacheKeepsNothing() throws {
        let directory = try makeTemporaryDirectory(self)
        try FileManager.default.copyItem(
            at: repositoryRoot.appendingPathComponent("Fixtures/Near.xcdatamodeld"),
            to: directory.appendingPathComponent("Near.xcdatamodeld"))
        _ = try project(in: directory, children: ["Near 18.xcdatamodel", "Near 19.xcdatamodel", "Near 20.xcdatamodel"])
        let folder = try makeTemporaryDirectory(self)
        let uncached = modellint(
            ["check", "--no-cache"], in: directory, variables: ["MODELLINT_CACHE_DIR": folder.path])
        XCTAssertEqual(entries(folder), [])
        let cached = modellint(["check"], in: directory, variables: ["MODELLINT_CACHE_DIR": folder.path])
        XCTAssertEqual(entries(folder).count, 1)
        XCTAssertEqual(cached.standardOutput, uncached.standardOutput)
        XCTAssertEqual(
            modellint(["check"], in: directory, variables: ["MODELLINT_CACHE_DIR": folder.path]).standardOutput,
            uncached.standardOutput)
        // Nothing of the cache is ever written into the repository.
        XCTAssertFalse(
            try FileManager.default.subpathsOfDirectory(atPath: directory.path).contains { $0.hasSuffix(".json") })
    }
}
