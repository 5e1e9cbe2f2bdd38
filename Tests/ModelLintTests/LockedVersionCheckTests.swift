import Foundation
import Testing
import ModelLintSupport
import ModelLintTestSupport
import ModelLintModel
import ModelLintHistory
import ModelLintCommands

/// The locked versions found unchanged while the app is gathered: only exact digest matches, remembered by file
/// identity, and never a reason to miss an edit of the bundle or of the lock file.
@Suite struct LockedVersionCheckTests {
    let temporary = TemporaryDirectories()

    private func lockedNear() throws -> (directory: URL, cache: URL) {
        let directory = try temporary.make()
        try FileManager.default.copyItem(
            at: repositoryRoot.appendingPathComponent("Fixtures/Near.xcdatamodeld"),
            to: directory.appendingPathComponent("Near.xcdatamodeld"))
        #expect(modellint(["lock"], in: directory).exitCode == 0)
        // Settled (modified an hour ago): what a run reads of them may be kept.
        let old = Date(timeIntervalSinceNow: -3600)
        for path in try FileManager.default.subpathsOfDirectory(atPath: directory.path) {
            try FileManager.default.setAttributes(
                [.modificationDate: old], ofItemAtPath: directory.appendingPathComponent(path).path)
        }
        return (directory, try temporary.make())
    }

    private func shippedFindings(_ directory: URL, cache: URL?) -> [String] {
        let out = modellint(
            ["check", "--format", "json"] + (cache == nil ? ["--no-cache"] : []), in: directory,
            variables: cache.map { ["MODELLINT_CACHE_DIR": $0.path] } ?? [:])
        return jsonDiagnostics(out).map { "\($0["ruleId"]!) \($0["version"] as? String ?? "-")" }
            .filter { $0.hasPrefix("shipped") }
    }

    @Test func testAnEditOfTheBundleOrTheLockIsFoundThroughTheCache() throws {
        let (directory, cache) = try lockedNear()
        #expect(shippedFindings(directory, cache: cache) == [])
        let entries = try FileManager.default.contentsOfDirectory(atPath: cache.path + "/lock-digests")
        #expect(entries.count == 1, "one entry for the bundle")
        let records = try String(contentsOfFile: cache.path + "/lock-digests/" + entries[0], encoding: .utf8)
        #expect(records.split(separator: "\n").count == 4, "a header and one record per locked version")

        // The lock's record of Near 19 no longer matches (its content digest edited): compared, and reported, as
        // without the cache.
        let lock = directory.appendingPathComponent("modellint.lock")
        let original = try String(contentsOf: lock, encoding: .utf8)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(original.utf8)) as? [String: Any])
        let bundles = try #require(json["bundles"] as? [String: [String: [String: [String: Any]]]])
        let content = try #require(bundles["Near.xcdatamodeld"]?["versions"]?["Near 19"]?["content"] as? String)
        try Data(original.replacingOccurrences(of: content, with: "sha256:" + String(repeating: "0", count: 64)).utf8)
            .write(to: lock)
        #expect(shippedFindings(directory, cache: cache) == ["shipped-version-semantics-changed Near 19"])
        #expect(shippedFindings(directory, cache: nil) == ["shipped-version-semantics-changed Near 19"])
        try Data(original.utf8).write(to: lock)

        // A contents file edited in place with its modification time put back: its identity changed (inode times),
        // so it is compared again.
        let near18 = directory.appendingPathComponent("Near.xcdatamodeld/Near 18.xcdatamodel/contents")
        let text = try String(contentsOf: near18, encoding: .utf8)
        let modified = try #require(try FileManager.default.attributesOfItem(atPath: near18.path)[.modificationDate])
        let edited = text.replacingOccurrences(of: "attributeType=\"Integer 32\"", with: "attributeType=\"Integer 64\"")
        #expect(edited != text)
        try Data(edited.utf8).write(to: near18)
        try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: near18.path)
        #expect(shippedFindings(directory, cache: cache) == ["shipped-version-edited Near 18"])
        #expect(shippedFindings(directory, cache: nil) == ["shipped-version-edited Near 18"])
    }

    /// Exactly the versions whose digests are the record's, with or without a cache; a format-1 record is left to
    /// the engine.
    @Test func testOnlyExactMatchesAreUnchanged() throws {
        let (directory, cache) = try lockedNear()
        let path = directory.appendingPathComponent("Near.xcdatamodeld").path
        let bundle = BundleLoader.load(bundleURL: URL(fileURLWithPath: path), displayPath: "Near.xcdatamodeld")
        let models = Dictionary(uniqueKeysWithValues: bundle.versions.map { ($0.name, $0.model!) })
        let everyVersion: Set<ExactName> = [ExactName("Near 18"), ExactName("Near 19"), ExactName("Near 20")]
        func history(_ digest: (String) -> VersionDigest) -> ShippedHistory {
            ShippedHistory(
                source: .lockFile("modellint.lock"),
                versions: ["Near 18", "Near 19", "Near 20"].map { ShippedHistory.Version(name: $0, digest: digest($0)) }
            )
        }
        let exact = history { VersionDigest(model: models[$0]!) }
        for folder in [nil, ResultCache(folder: cache.path)] {
            #expect(
                LockedVersionCheck.unchanged(exact, workTree: bundle, absolutePath: path, cache: folder)
                    == everyVersion)
        }
        // Near 19 recorded with another checksum (the rest the same): not unchanged, even from the cache.
        let otherChecksum = history { name in
            var digest = VersionDigest(model: models[name]!)
            if name == "Near 19" { digest.checksum = "AAAA" }
            return digest
        }
        let remembered = ResultCache(folder: cache.path)
        #expect(
            LockedVersionCheck.unchanged(otherChecksum, workTree: bundle, absolutePath: path, cache: remembered)
                == [ExactName("Near 18"), ExactName("Near 20")])
        let legacy = history { VersionDigest.legacy(model: models[$0]!) }
        #expect(LockedVersionCheck.unchanged(legacy, workTree: bundle, absolutePath: path, cache: remembered) == [])
    }
}
