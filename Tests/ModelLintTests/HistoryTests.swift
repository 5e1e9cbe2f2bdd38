import Foundation
import Testing
import ModelLintSupport
import ModelLintTestSupport
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

/// Shipped history: the lock file, --against and --released, in git repositories the tests create.
@Suite struct HistoryTests {
    let temporary = TemporaryDirectories()

    let fixtures = repositoryRoot.appendingPathComponent("Fixtures")

    /// A repository holding a copy of Fixtures/Near.xcdatamodeld, committed.
    private func repository() throws -> URL {
        let directory = try temporary.make()
        try git(["init", "-q", "-b", "main"], in: directory)
        try FileManager.default.copyItem(
            at: fixtures.appendingPathComponent("Near.xcdatamodeld"),
            to: directory.appendingPathComponent("Near.xcdatamodeld"))
        try git(["add", "-A"], in: directory)
        try git(["commit", "-q", "-m", "Near 20"], in: directory)
        return directory
    }

    private func edit(_ directory: URL, _ version: String, _ transform: (String) -> String) throws {
        let url = directory.appendingPathComponent("Near.xcdatamodeld/\(version).xcdatamodel/contents")
        let text = try String(contentsOf: url, encoding: .utf8)
        let changed = transform(text)
        #expect(changed != text, "the edit must change the file")
        try Data(changed.utf8).write(to: url)
    }

    /// A shipped version's schema edited (Visit.duration's type) and another shipped version deleted.
    private func editNear18AndDeleteNear19(_ directory: URL) throws {
        try edit(directory, "Near 18") {
            $0.replacingOccurrences(of: "attributeType=\"Integer 32\"", with: "attributeType=\"Integer 64\"")
        }
        try FileManager.default.removeItem(
            at: directory.appendingPathComponent("Near.xcdatamodeld/Near 19.xcdatamodel"))
    }

    private func findings(_ out: CommandOutput) -> [String] {
        return jsonDiagnostics(out).map { "\($0["ruleId"]!) \($0["version"] as? String ?? "-")" }
    }

    private func messages(_ out: CommandOutput, _ rule: String) -> [String] {
        return jsonDiagnostics(out).filter { $0["ruleId"] as? String == rule }.compactMap { $0["message"] as? String }
    }

    @Test func testCosmeticResaveIsNotAnEdit() throws {
        let directory = try repository()
        #expect(modellint(["lock"], in: directory).exitCode == 0)
        try edit(directory, "Near 19") { text in
            // What a newer Xcode does on save: new tool versions, reordered attributes, moved diagram, syncable dropped.
            var t = text.replacingOccurrences(
                of: "lastSavedToolsVersion=\"23231\" systemVersion=\"23A344\"",
                with: "lastSavedToolsVersion=\"24000\" systemVersion=\"25A100\"")
            t = t.replacingOccurrences(of: " syncable=\"YES\"", with: "")
            t = t.replacingOccurrences(of: "positionX=\"-63\"", with: "positionX=\"10\"")
            let latitude =
                "        <attribute name=\"latitude\" attributeType=\"Double\" defaultValueString=\"0.0\" usesScalarValueType=\"YES\"/>\n"
            t = t.replacingOccurrences(of: latitude, with: "")
            return t.replacingOccurrences(
                of: "    </entity>\n    <entity name=\"Visit\"",
                with: latitude.replacingOccurrences(of: "        ", with: "        ")
                    + "    </entity>\n    <entity name=\"Visit\"")
        }
        let out = modellint(["check", "--format", "json"], in: directory)
        #expect(out.exitCode == 0)
        #expect(findings(out) == [])
    }

    @Test func testLockReportsEditsAndDeletions() throws {
        let directory = try repository()
        let first = modellint(["lock", "--verbose"], in: directory)
        #expect(
            first.standardOutput == """
                  added: Near.xcdatamodeld Near 18
                  added: Near.xcdatamodeld Near 19
                  added: Near.xcdatamodeld Near 20
                modellint.lock: 3 versions added, 0 already locked

                """)
        // Hash-neutral edit of Near 18, schema edit of Near 19, deletion of Near 20 (pointer moved back).
        try edit(directory, "Near 18") {
            $0.replacingOccurrences(of: "deletionRule=\"Cascade\"", with: "deletionRule=\"Nullify\"")
        }
        try edit(directory, "Near 19") {
            $0.replacingOccurrences(
                of: "<attribute name=\"note\" optional=\"YES\" attributeType=\"String\"/>",
                with: "<attribute name=\"note\" attributeType=\"String\" defaultValueString=\"\"/>")
        }
        try FileManager.default.removeItem(
            at: directory.appendingPathComponent("Near.xcdatamodeld/Near 20.xcdatamodel"))
        try Data(RuleExample.currentVersionPlist(naming: "Near 19").utf8).write(
            to: directory.appendingPathComponent("Near.xcdatamodeld/.xccurrentversion"))
        let out = modellint(["check", "--format", "json"], in: directory)
        #expect(out.exitCode == 1)
        #expect(
            (findings(out).filter { $0.hasPrefix("shipped") }) == [
                "shipped-version-deleted Near 20",
                "shipped-version-semantics-changed Near 18",
                "shipped-version-edited Near 19",
            ], "a deleted version has no place in the order: its finding comes first")
        #expect(
            messages(out, "shipped-version-semantics-changed") == [
                "Near 18 shipped (modellint.lock) and was edited in a way its version hashes do not show (entity Place): existing data gets the new behaviour with no migration"
            ])
        // The lock only grows: a second run keeps the shipped digests.
        let again = modellint(["lock"], in: directory)
        #expect(again.standardOutput == "modellint.lock: 0 versions added, 2 already locked\n")
        #expect(modellint(["check", "--format", "json"], in: directory).exitCode == 1)
        let forced = modellint(["lock", "--force", "--verbose"], in: directory)
        #expect(
            forced.standardOutput
                == "  re-locked: Near.xcdatamodeld Near 18\n  re-locked: Near.xcdatamodeld Near 19\nmodellint.lock: 0 versions added, 0 already locked, 2 re-locked\n"
        )
        #expect(
            (findings(modellint(["check", "--format", "json"], in: directory)).filter { $0.hasPrefix("shipped") }) == [
                "shipped-version-deleted Near 20"
            ])
    }

    @Test func testBadLockFilesAreConfigurationErrors() throws {
        let directory = try repository()
        try Data("{ not json".utf8).write(to: directory.appendingPathComponent("modellint.lock"))
        let invalid = modellint(["check"], in: directory)
        #expect(invalid.exitCode == 2)
        #expect(
            invalid.standardError.hasPrefix("modellint: \(directory.path)/modellint.lock: not valid JSON"),
            Comment(rawValue: invalid.standardError))
        try Data("{ \"format\": 9, \"bundles\": {} }".utf8).write(
            to: directory.appendingPathComponent("modellint.lock"))
        let future = modellint(["check"], in: directory)
        #expect(future.exitCode == 2)
        #expect(
            future.standardError.contains("format: 9 is not a lock format this modellint reads"),
            Comment(rawValue: future.standardError))
        #expect(modellint(["check", "--lock", "missing.lock"], in: directory).exitCode == 2)
        // --no-lock turns the default lock off: the broken one is not read, and the run lints.
        let unlocked = modellint(["check", "--no-lock"], in: directory)
        #expect(unlocked.exitCode == 0, Comment(rawValue: unlocked.standardError))
        #expect(unlocked.standardError == "")
        let both = modellint(["check", "--no-lock", "--lock", "modellint.lock"], in: directory)
        #expect(both.exitCode == 2)
        #expect(both.standardError == "modellint: --lock and --no-lock contradict each other: give one\n")
    }

    @Test func testAgainstReportsSupersededEditsAndDeletionsButNotTheCurrentVersion() throws {
        let directory = try repository()
        try editNear18AndDeleteNear19(directory)
        try edit(directory, "Near 20") {
            $0.replacingOccurrences(of: "deletionRule=\"Cascade\"", with: "deletionRule=\"Nullify\"")
        }
        let out = modellint(["check", "--against", "main", "--format", "json"], in: directory)
        #expect(out.exitCode == 1)
        #expect(
            (findings(out).filter { $0.hasPrefix("shipped") || $0.hasPrefix("version-edited") }) == [
                "shipped-version-deleted Near 19",
                "version-edited-after-superseded Near 18",
            ], "Near 20 was current at main: editing it is normal work; the deleted Near 19 has no place in the order")
        #expect(
            messages(out, "version-edited-after-superseded") == [
                "Near 18 was already superseded at main and its schema was edited (Visit.duration: type): stores written by Near 18 no longer match it"
            ])
    }

    /// The documented team workflow runs with a lock and --against: one edit (or deletion) is one finding, the
    /// lock's.
    @Test func testALockAndAgainstReportOneEditOnce() throws {
        let directory = try repository()
        #expect(modellint(["lock"], in: directory).exitCode == 0)
        try git(["add", "-A"], in: directory)
        try git(["commit", "-q", "-m", "lock"], in: directory)
        try editNear18AndDeleteNear19(directory)
        let out = modellint(["check", "--against", "main", "--format", "json"], in: directory)
        #expect(out.exitCode == 1)
        #expect(
            (findings(out).filter { $0.hasPrefix("shipped") || $0.hasPrefix("version-edited") }) == [
                "shipped-version-deleted Near 19", "shipped-version-edited Near 18",
            ])
    }

    @Test func testAgainstTreatsABundleMissingAtTheRevisionAsNew() throws {
        let directory = try repository()
        try FileManager.default.copyItem(
            at: fixtures.appendingPathComponent("Changes/RequiredAttribute.xcdatamodeld"),
            to: directory.appendingPathComponent("Other.xcdatamodeld"))
        let out = modellint(["check", "Other.xcdatamodeld", "--against", "main", "--format", "json"], in: directory)
        #expect(findings(out) == ["required-attribute-without-default Near 2"])
    }

    @Test func testReleasedCatchesAnInPlaceEditOfTheReleasedCurrentVersion() throws {
        let directory = try repository()
        try git(["tag", "v1.0"], in: directory)
        try edit(directory, "Near 20") {
            $0.replacingOccurrences(
                of: "<attribute name=\"title\" attributeType=\"String\" defaultValueString=\"\"/>",
                with:
                    "<attribute name=\"title\" attributeType=\"String\" defaultValueString=\"\"/>\n        <attribute name=\"color\" optional=\"YES\" attributeType=\"String\"/>"
            )
        }
        #expect(
            findings(modellint(["check", "--against", "v1.0", "--format", "json"], in: directory)) == [],
            "--against alone cannot see it")
        let out = modellint(["check", "--released", "v1.0", "--format", "json"], in: directory)
        #expect(out.exitCode == 1)
        #expect(findings(out) == ["shipped-version-edited Near 20"])
        #expect(
            messages(out, "shipped-version-edited") == [
                "Near 20 shipped (release v1.0) and its schema was edited in place (Tag.color added): stores written by Near 20 no longer match it"
            ])
        try edit(directory, "Near 19") {
            $0.replacingOccurrences(of: "deletionRule=\"Cascade\"", with: "deletionRule=\"Deny\"")
        }
        #expect(
            messages(
                modellint(["check", "--released", "v1.0", "--format", "json"], in: directory),
                "shipped-version-semantics-changed") == [
                    "Near 19 shipped (release v1.0) and was edited in a way its version hashes do not show (Place.visits: delete rule): existing data gets the new behaviour with no migration"
                ])
    }

    @Test func testGitErrorsAreUsageErrors() throws {
        let plain = try temporary.make()
        try FileManager.default.copyItem(
            at: fixtures.appendingPathComponent("Near.xcdatamodeld"),
            to: plain.appendingPathComponent("Near.xcdatamodeld"))
        let notRepo = modellint(["check", "--against", "main"], in: plain)
        #expect(notRepo.exitCode == 2)
        #expect(
            notRepo.standardError.contains("is not inside a git work tree"), Comment(rawValue: notRepo.standardError))

        let directory = try repository()
        let unknown = modellint(["check", "--against", "origin/main"], in: directory)
        #expect(unknown.exitCode == 2)
        #expect(
            unknown.standardError
                == "modellint: unknown revision 'origin/main': fetch it first (for example git fetch origin main)\n")
    }

    @Test func testHostileRevisionsNeverBecomeOptionsOrCommands() throws {
        let directory = try repository()
        for revision in [
            "--output=/tmp/pwned", "-h", "main; touch pwned", "$(touch pwned)", "`touch pwned`", "main\ntouch pwned",
        ] {
            let out = modellint(["check", "--against=\(revision)"], in: directory)
            #expect(out.exitCode == 2, Comment(rawValue: revision))
        }
        let released = modellint(["check", "--released", "--upload-pack=touch pwned"], in: directory)
        #expect(released.exitCode == 2)
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("pwned").path))
        #expect(!FileManager.default.fileExists(atPath: "/tmp/pwned"))
    }

    @Test func testShallowCloneMissingTheRevisionSaysFetchDepth() throws {
        let origin = try repository()
        try edit(origin, "Near 20") { $0 + " " }
        try git(["commit", "-q", "-am", "second"], in: origin)
        let clones = try temporary.make()
        try git(["clone", "-q", "--depth", "1", "file://\(origin.path)", "shallow"], in: clones)
        let out = modellint(["check", "--against", "HEAD~1"], in: clones.appendingPathComponent("shallow"))
        #expect(out.exitCode == 2)
        #expect(
            out.standardError.contains("shallow clone") && out.standardError.contains("fetch-depth: 0"),
            Comment(rawValue: out.standardError))
    }

    @Test func testNewVersionHappyPathCollisionAndRollback() throws {
        let directory = try temporary.make()
        try FileManager.default.copyItem(
            at: fixtures.appendingPathComponent("Near.xcdatamodeld"),
            to: directory.appendingPathComponent("Near.xcdatamodeld"))
        let made = modellint(["new-version", "Near.xcdatamodeld"], in: directory)
        #expect(made.exitCode == 0, Comment(rawValue: made.standardError))
        #expect(
            made.standardOutput.hasPrefix(
                "created Near.xcdatamodeld/Near 21.xcdatamodel, a copy of Near 20, and made it the current version."))
        let bundle = BundleLoader.load(
            bundleURL: directory.appendingPathComponent("Near.xcdatamodeld"), displayPath: "Near.xcdatamodeld")
        #expect(bundle.versions.map(\.name) == ["Near 18", "Near 19", "Near 20", "Near 21"])
        #expect(bundle.currentVersion?.name == "Near 21")
        #expect(lint(directory.appendingPathComponent("Near.xcdatamodeld")).map(\.ruleId) == ["redundant-version"])

        let collision = modellint(["new-version", "Near.xcdatamodeld", "--name", "Near 20"], in: directory)
        #expect(collision.exitCode == 2)
        #expect(collision.standardError == "modellint: Near.xcdatamodeld already has a version named Near 20\n")

        // A pointer that cannot be replaced: the copy is undone and nothing else changes.
        let pointer = directory.appendingPathComponent("Near.xcdatamodeld/.xccurrentversion")
        try FileManager.default.removeItem(at: pointer)
        try FileManager.default.createDirectory(
            at: pointer.appendingPathComponent("blocker"), withIntermediateDirectories: true)
        let before = try FileManager.default.contentsOfDirectory(
            atPath: directory.appendingPathComponent("Near.xcdatamodeld").path
        ).sorted()
        let failed = modellint(["new-version", "Near.xcdatamodeld", "--name", "Near 22"], in: directory)
        #expect(failed.exitCode == 2)
        #expect(
            failed.standardError.hasSuffix("Near.xcdatamodeld is unchanged\n"), Comment(rawValue: failed.standardError))
        try #expect(
            FileManager.default.contentsOfDirectory(
                atPath: directory.appendingPathComponent("Near.xcdatamodeld").path
            ).sorted() == before)
    }

    @Test func testNextVersionNames() {
        #expect(NewVersionCommand.nextName(after: "Near 20") == "Near 21")
        #expect(NewVersionCommand.nextName(after: "Model9") == "Model10")
        #expect(NewVersionCommand.nextName(after: "Model") == "Model 2")
        #expect(NewVersionCommand.nextName(after: "Moonlight v1.10") == nil)
    }

    @Test func testRetirementsFromTheConfiguration() throws {
        let directory = try temporary.make()
        let payload = "<attribute name=\"payload\" optional=\"YES\" attributeType=\"Binary\"/>"
        let blob = "<attribute name=\"payloadBlob\" optional=\"YES\" attributeType=\"Binary\"/>"
        try writeBundle(
            in: directory,
            versions: [
                ("Near 18", "<entity name=\"Thing\">\(payload)</entity>"),
                ("Near 19", "<entity name=\"Thing\">\(payload)\(blob)</entity>"),
                (
                    "Near 20",
                    "<entity name=\"Thing\">\(payload)\(blob)<attribute name=\"x\" optional=\"YES\" attributeType=\"String\"/></entity>"
                ),
            ], current: "Near 20")
        try Data(
            "{ \"bundles\": { \"Near.xcdatamodeld\": { \"retired\": [ { \"entity\": \"Thing\", \"property\": \"payload\", \"replacedBy\": \"payloadBlob\", \"interimVersion\": \"Near 19\" } ] } } }"
                .utf8
        )
        .write(to: directory.appendingPathComponent(".modellint.json"))
        #expect(
            findings(modellint(["check", "--format", "json"], in: directory)) == ["retired-attribute-present Near 20"])
        // Removed in Near 21: no property-removed (it is retired), and a note for devices that skip Near 19.
        try writeBundle(
            in: directory,
            versions: [
                (
                    "Near 21",
                    "<entity name=\"Thing\">\(blob)<attribute name=\"x\" optional=\"YES\" attributeType=\"String\"/></entity>"
                )
            ], current: "Near 21")
        let out = modellint(["check", "--format", "json"], in: directory)
        #expect(findings(out) == ["retirement-skips-interim Near 21"])
        #expect(
            messages(out, "retirement-skips-interim") == [
                "Thing.payload was retired through the interim version Near 19: devices on Near 18 that update straight to Near 21 skip the copy and lose its data"
            ])
        #expect(findings(modellint(["check", "--format", "json", "--migration", "progressive"], in: directory)) == [])
    }
}

/// Blobs are read from git in one `cat-file --batch` whose output is bounded: past the bound git is stopped and the
/// caller asks for sizes first, so a huge blob is never read into memory.
@Suite struct BoundedCatFileTests {
    let temporary = TemporaryDirectories()

    @Test func testABlobOverTheBoundStopsTheReadAndOneUnderItIsRead() throws {
        let directory = try temporary.make()
        try git(["init", "-q", "-b", "main"], in: directory)
        try Data(repeating: UInt8(ascii: "x"), count: 4_000).write(to: directory.appendingPathComponent("big"))
        try Data("small\n".utf8).write(to: directory.appendingPathComponent("small"))
        let big = try git(["hash-object", "-w", "big"], in: directory).trimmingCharacters(in: .whitespacesAndNewlines)
        let small = try git(["hash-object", "-w", "small"], in: directory)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let repository = try GitRepository(containing: directory.path)
        let read = try #require(try repository.catFiles([small, big], limitEach: 5_000))
        #expect(read.map(\.size) == [6, 4_000])
        #expect(read[0].data == Data("small\n".utf8))
        try #expect(repository.catFiles([small, big], limitEach: 1_000) == nil, "4,000 bytes past a bound of 2,256")
        try #expect(repository.blobSizes([small, big]) == [6, 4_000])
    }
}
