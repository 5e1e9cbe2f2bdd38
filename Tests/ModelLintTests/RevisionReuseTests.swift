import Foundation
import XCTest
import ModelLintSupport
import ModelLintModel
import ModelLintHistory

/// At a revision (`--against`, `--released`), a version git says is byte for byte the work tree's is the work
/// tree's version, not fetched and parsed again, and the revision's bundle is shown at the work tree's path: the
/// bundle must be exactly what reading every version at the revision gives.
final class RevisionReuseTests: XCTestCase {
    /// The bundle at a revision read reusing the work tree's unchanged versions equals the bundle read in full,
    /// versions edited since included, both shown at the work tree's path; and only the versions git calls
    /// identical are reused, as the bundle records.
    func testTheBundleAtARevisionReadWithReuseIsTheBundleReadInFull() throws {
        let directory = try makeTemporaryDirectory(self)
        let bundle = directory.appendingPathComponent("Near.xcdatamodeld")
        try FileManager.default.copyItem(
            at: repositoryRoot.appendingPathComponent("Fixtures/Near.xcdatamodeld"), to: bundle)
        _ = try git(["init", "-q"], in: directory)
        _ = try git(["add", "-A"], in: directory)
        _ = try git(["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "one"], in: directory)
        // One version edited since the commit: read from git, not reused.
        let names = try FileManager.default.contentsOfDirectory(atPath: bundle.path).filter {
            $0.hasSuffix(".xcdatamodel")
        }.sorted()
        let edited = bundle.appendingPathComponent(names[0] + "/contents")
        try Data((try String(contentsOf: edited, encoding: .utf8) + "\n").utf8).write(to: edited)
        let repository = try GitRepository(containing: directory.path)
        let commit = try repository.resolve("HEAD")
        let workTree = BundleLoader.load(bundleURL: bundle, displayPath: "Near.xcdatamodeld")
        let identical = repository.versionsIdentical(bundleAt: bundle.path, since: commit)
        XCTAssertEqual(identical.count, names.count - 1)
        XCTAssertFalse(identical.contains(ExactName(String(names[0].dropLast(".xcdatamodel".count)))))
        var reusing: [ExactName: ModelVersion] = [:]
        for version in workTree.versions where identical.contains(ExactName(version.name)) {
            reusing[ExactName(version.name)] = version
        }
        let full = try XCTUnwrap(
            try repository.bundle(
                atPath: bundle.path, commit: commit, label: "HEAD", versionOrder: nil, following: nil,
                cache: EntitySourceCache(),
                workTree: GitRepository.WorkTreeRead(displayPath: "Near.xcdatamodeld", identical: [:])))
        let reused = try XCTUnwrap(
            try repository.bundle(
                atPath: bundle.path, commit: commit, label: "HEAD", versionOrder: nil, following: nil,
                cache: EntitySourceCache(),
                workTree: GitRepository.WorkTreeRead(displayPath: "Near.xcdatamodeld", identical: reusing)))
        XCTAssertEqual(reused.path, "Near.xcdatamodeld")
        XCTAssertEqual(full.path, "Near.xcdatamodeld")
        XCTAssertEqual(reused.versions.map(\.name), full.versions.map(\.name))
        XCTAssertEqual(reused.versions.map(\.contentsPath), full.versions.map(\.contentsPath))
        XCTAssertEqual(reused.versions.map(\.folderPath), full.versions.map(\.folderPath))
        XCTAssertEqual(reused.declaredCurrentVersion, full.declaredCurrentVersion)
        XCTAssertEqual(reused.workTreeVersions, identical)
        XCTAssertEqual(full.workTreeVersions, [])
        for (a, b) in zip(reused.versions, full.versions) {
            let (x, y) = (try XCTUnwrap(a.model), try XCTUnwrap(b.model))
            assertSameModel(x, y, a.name)
            XCTAssertEqual(x.location.file, "Near.xcdatamodeld/\(a.name).xcdatamodel/contents")
        }
        // Without the work tree's read, the revision's own path.
        let own = try XCTUnwrap(
            try repository.bundle(
                atPath: bundle.path, commit: commit, label: "HEAD", versionOrder: nil, following: nil,
                cache: EntitySourceCache()))
        XCTAssertTrue(own.path.hasPrefix("HEAD:"), own.path)
    }
}
