import Foundation
import Testing
import ModelLintCommands
import ModelLintGather

/// The pull-request gate is a function of the change: with every fixture bundle and, when
/// ../shared is beside the repository, every corpus bundle committed to a repository, a commit that changes no
/// model file reports nothing new, and neither does a tree compared with itself.
@Suite struct GateInvariantTests {
    let temporary = TemporaryDirectories()

    /// A repository in `directory`: its files as the base commit, then a commit that touches no model. One shell
    /// for the lot.
    private func commitThenTouchNoModel(in directory: URL) throws {
        let git = "git -c user.email=t@example.com -c user.name=t -c commit.gpgsign=false"
        let setUp = try shell(
            [
                "chmod -R u+w .", "git init -q -b main", "\(git) add -A", "\(git) commit -qm base",
                "echo notes > README.md", "\(git) add README.md", "\(git) commit -qm 'a change that touches no model'",
            ].joined(separator: " && "), in: directory)
        guard setUp.code == 0 else { throw TestSetupFailure("git failed: \(setUp.err)") }
    }

    @Test func testAChangeThatTouchesNoModelReportsNothingNew() throws {
        let bundles = fixtureAndCorpusBundles()
        #expect(bundles.count == expectedBundleCount())
        // One repository for the fixtures and one for the corpus, each bundle in a folder of its own (no two
        // share a folder's mapping models or settings): one commit pair and one run per comparison rather
        // than per bundle. A fixture is also compared with itself; a corpus bundle (up to 117 versions) once,
        // across the commit.
        let groups = [
            (bundles.filter { $0.path.hasPrefix(repositoryRoot.path + "/") }, ["HEAD", "HEAD~1"]),
            (bundles.filter { !$0.path.hasPrefix(repositoryRoot.path + "/") }, ["HEAD~1"]),
        ]
        for (group, refs) in groups where !group.isEmpty {
            let directory = try temporary.make()
            for (i, bundle) in group.enumerated() {
                let folder = directory.appendingPathComponent(String(format: "b%03d", i))
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                try FileManager.default.copyItem(
                    at: bundle, to: folder.appendingPathComponent(bundle.lastPathComponent))
            }
            try commitThenTouchNoModel(in: directory)
            for ref in refs {
                let out = modellint(
                    ["check", ".", "--against", ref, "--only-new", "--notes", "--format", "json"], in: directory)
                #expect(out.exitCode != 2, "against \(ref): \(out.standardError)")
                let report = try #require(
                    JSONSerialization.jsonObject(with: Data(out.standardOutput.utf8)) as? [String: Any])
                #expect((report["bundles"] as? [Any])?.count == group.count, "against \(ref)")
                // A version folder with no files (a fixture of a missing contents) is nothing git can commit: it
                // exists in the work tree alone, so its finding is the work tree's.
                let uncommittable = jsonDiagnostics(out).filter { $0["ruleId"] as? String != "missing-contents" }
                #expect(
                    (zip(uncommittable.map { $0["file"] as? String ?? "-" }, summary(uncommittable, lines: false))
                        .map { "\($0): \($1)" }) == [], "against \(ref)")
            }
        }
    }

    /// A commit that only adds a version reports nothing new but the new version's own findings: advice about the
    /// bundle's configuration (how it migrates, its version order) is new only when the advice changed.
    @Test func testACommitThatOnlyAddsAVersionReportsOnlyThatVersionsFindings() throws {
        var bundles = [
            "Fixtures/Mapped/Store.xcdatamodeld", "Fixtures/Changes/TypeReused.xcdatamodeld",
            "Fixtures/Precision/AmbiguousStems.xcdatamodeld", "Fixtures/Precision/OneProblem.xcdatamodeld",
            "Fixtures/Changes/RenameChain.xcdatamodeld", "Fixtures/Precision/History.xcdatamodeld",
        ].map { repositoryRoot.appendingPathComponent($0) }
        if let corpus = corpusRoot {
            bundles += [
                "rileytestut__Delta/Delta/Database/Model/Delta.xcdatamodeld",
                "alemar11__CoreDataPlus/Tests/Resources/SampleModel/SampleModel.xcdatamodeld",
            ].map { corpus.appendingPathComponent($0) }
        }
        let git = "git -c user.email=t@example.com -c user.name=t -c commit.gpgsign=false"
        for source in bundles where FileManager.default.fileExists(atPath: source.path) {
            let directory = try temporary.make()
            let bundle = directory.appendingPathComponent(source.lastPathComponent)
            try FileManager.default.copyItem(at: source, to: bundle)
            // Mapping models beside a fixture bundle travel with it.
            let migrations = source.deletingLastPathComponent().appendingPathComponent("Migrations")
            if FileManager.default.fileExists(atPath: migrations.path) {
                try FileManager.default.copyItem(at: migrations, to: directory.appendingPathComponent("Migrations"))
            }
            let loaded = modellint(["check", bundle.lastPathComponent, "--format", "json"], in: directory)
            let report = try #require(
                JSONSerialization.jsonObject(with: Data(loaded.standardOutput.utf8)) as? [String: Any])
            let versions = try #require((report["bundles"] as? [[String: Any]])?.first?["versions"] as? [String])
            try #require(versions.count >= 3, "\(source.lastPathComponent)")
            let (previous, added) = (versions[versions.count - 2], versions[versions.count - 1])
            let pointer = bundle.appendingPathComponent(".xccurrentversion")
            let current = try String(contentsOf: pointer, encoding: .utf8)
            let folder = bundle.appendingPathComponent(added + ".xcdatamodel")
            let aside = directory.appendingPathComponent("aside.xcdatamodel")
            try FileManager.default.moveItem(at: folder, to: aside)
            try Data(current.replacingOccurrences(of: added + ".xcdatamodel", with: previous + ".xcdatamodel").utf8)
                .write(to: pointer)
            var setUp = try shell(
                ["chmod -R u+w .", "git init -q -b main", "\(git) add -A", "\(git) commit -qm base"]
                    .joined(separator: " && "), in: directory)
            #expect(setUp.code == 0, Comment(rawValue: setUp.err))
            try FileManager.default.moveItem(at: aside, to: folder)
            try Data(current.utf8).write(to: pointer)
            setUp = try shell("\(git) add -A && \(git) commit -qm 'add \(added)'", in: directory)
            #expect(setUp.code == 0, Comment(rawValue: setUp.err))
            let out = modellint(
                [
                    "check", bundle.lastPathComponent, "--against", "HEAD~1", "--only-new", "--notes", "--format",
                    "json",
                ],
                in: directory)
            #expect(out.exitCode != 2, Comment(rawValue: out.standardError))
            let notAboutTheVersion = jsonDiagnostics(out).filter { ($0["version"] as? String) != added }
            #expect(
                summary(notAboutTheVersion, lines: false) == [],
                Comment(rawValue: "\(source.lastPathComponent) adding \(added)"))
        }
    }

    /// The same for every SwiftData fixture app (its Swift files, and a bundle beside them when it has one): a
    /// commit that touches no Swift file or model reports nothing new, against HEAD and HEAD~1.
    @Test func testAChangeThatTouchesNoSwiftDataDeclarationReportsNothingNew() throws {
        let fixtures = repositoryRoot.appendingPathComponent("Fixtures/SwiftData")
        let apps = try FileManager.default.contentsOfDirectory(atPath: fixtures.path).filter { name in
            ((try? FileManager.default.contentsOfDirectory(atPath: fixtures.appendingPathComponent(name).path)) ?? [])
                .contains { $0.hasSuffix(".swift") }
        }.sorted()
        // Derived, not pinned: every fixture app of Swift files, which includes these.
        #expect(Set(["Trips", "Library", "ModelClassMismatch"]).isSubset(of: apps), Comment(rawValue: "\(apps)"))
        for app in apps {
            let directory = try temporary.make()
            try FileManager.default.copyItem(
                at: fixtures.appendingPathComponent(app), to: directory.appendingPathComponent("App"))
            try commitThenTouchNoModel(in: directory)
            for ref in ["HEAD", "HEAD~1"] {
                let out = modellint(
                    ["check", "App", "--against", ref, "--only-new", "--notes", "--format", "json"], in: directory)
                #expect(out.exitCode != 2, "\(app) against \(ref): \(out.standardError)")
                #expect(summary(jsonDiagnostics(out), lines: false) == [], "\(app) against \(ref)")
            }
        }
    }

    /// Identities do not depend on where the repository is: a baseline written for fixture bundles accepts all of
    /// their findings again after the repository is moved to another parent under another name.
    @Test func testMovingTheRepositoryChangesNoIdentity() throws {
        let root = try temporary.make()
        let first = root.appendingPathComponent("one/app")
        try FileManager.default.createDirectory(at: first, withIntermediateDirectories: true)
        let fixtures = repositoryRoot.appendingPathComponent("Fixtures")
        for name in ["Changes", "Precision", "CloudKit", "MappingModels"] {
            try FileManager.default.copyItem(
                at: fixtures.appendingPathComponent(name), to: first.appendingPathComponent("Models/\(name)"))
        }
        _ = try shell("chmod -R u+w .", in: root)
        try git(["init", "-q", "-b", "main"], in: first)
        try git(["add", "-A"], in: first)
        try git(["commit", "-qm", "base"], in: first)
        let written = modellint(["check", "--notes", "--write-baseline", "modellint.baseline.json"], in: first)
        #expect(written.exitCode != 2, Comment(rawValue: written.standardError))
        let all = jsonDiagnostics(modellint(["check", "--notes", "--format", "json"], in: first))
        #expect(all.count > 40)
        // Moved: another parent, another name.
        let moved = root.appendingPathComponent("two/elsewhere")
        try FileManager.default.createDirectory(
            at: moved.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.moveItem(at: first, to: moved)
        let after = modellint(
            ["check", "--notes", "--baseline", "modellint.baseline.json", "--format", "json"], in: moved)
        #expect(after.exitCode != 2, Comment(rawValue: after.standardError))
        #expect(summary(jsonDiagnostics(after), lines: false) == [])
    }

    /// A change that only renames a folder above the bundles (git sees the files moved) reports nothing new: each
    /// bundle is read at REF where the change moved it from.
    @Test func testRenamingAFolderAboveTheBundlesReportsNothingNew() throws {
        let repository = try temporary.make()
        let fixtures = repositoryRoot.appendingPathComponent("Fixtures")
        for name in ["Changes", "Precision", "MappingModels"] {
            try FileManager.default.copyItem(
                at: fixtures.appendingPathComponent(name), to: repository.appendingPathComponent("Models/\(name)"))
        }
        _ = try shell("chmod -R u+w .", in: repository)
        try git(["init", "-q", "-b", "main"], in: repository)
        try git(["add", "-A"], in: repository)
        try git(["commit", "-qm", "base"], in: repository)
        try git(["mv", "Models", "DataModels"], in: repository)
        try git(["commit", "-qm", "rename the folder"], in: repository)
        let all = jsonDiagnostics(modellint(["check", "--notes", "--format", "json"], in: repository))
        #expect(all.count > 40)
        let out = modellint(
            ["check", "--against", "HEAD~1", "--only-new", "--notes", "--format", "json"], in: repository)
        #expect(out.exitCode != 2, Comment(rawValue: out.standardError))
        #expect(summary(jsonDiagnostics(out), lines: false) == [])
    }
}
