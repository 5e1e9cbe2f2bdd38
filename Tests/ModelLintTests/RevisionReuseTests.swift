import Foundation
import XCTest
import ModelLintSupport
import ModelLintModel
import ModelLintHistory

/// At a revision (`--against`, `--released`), a version git says is byte for byte the work tree's is the work
/// tree's model moved to the revision's path, not fetched and parsed again: it must be exactly what parsing it
/// there gives.
final class RevisionReuseTests: XCTestCase {
    private func assertSame(_ a: Model, _ b: Model, _ label: String, file: StaticString = #filePath, line: UInt = #line)
    {
        XCTAssertEqual(a.location, b.location, label, file: file, line: line)
        XCTAssertEqual(a.header, b.header, label, file: file, line: line)
        XCTAssertEqual(a.entities, b.entities, label, file: file, line: line)
        XCTAssertEqual(a.configurations, b.configurations, label, file: file, line: line)
        XCTAssertEqual(a.fetchRequests, b.fetchRequests, label, file: file, line: line)
        XCTAssertEqual(a.unknownXML, b.unknownXML, label, file: file, line: line)
        XCTAssertEqual(a.composites, b.composites, label, file: file, line: line)
        XCTAssertEqual(a.contentKeys, b.contentKeys, label, file: file, line: line)
        // Locations compared position for position, not only as equal values.
        XCTAssertEqual(
            a.entities.flatMap(\.elementLocations), b.entities.flatMap(\.elementLocations), label, file: file,
            line: line)
    }

    /// Every fixture and corpus version: parsed under one path and moved to another equals parsed under the other.
    func testAModelMovedToAnotherPathIsTheModelParsedThere() throws {
        var compared = 0
        for bundle in fixtureAndCorpusBundles() {
            let versions = try FileManager.default.contentsOfDirectory(atPath: bundle.path).filter {
                $0.hasSuffix(".xcdatamodel")
            }
            for version in versions {
                let file = bundle.appendingPathComponent(version + "/contents")
                guard let data = try? Data(contentsOf: file) else { continue }
                guard case .model(let here) = ContentsParser.parse(data: data, path: "W/contents"),
                    case .model(let there) = ContentsParser.parse(data: data, path: "HEAD~1:W/contents")
                else { continue }
                let moved = here.mapLocations {
                    $0.file == "W/contents"
                        ? SourceLocation(file: "HEAD~1:W/contents", line: $0.line, column: $0.column) : $0
                }
                assertSame(moved, there, "\(bundle.lastPathComponent)/\(version)")
                compared += 1
            }
        }
        XCTAssertGreaterThan(compared, 40, "fixture versions alone are more than 40")
    }

    /// The bundle at a revision read reusing the work tree's unchanged versions equals the bundle read in full,
    /// versions edited since included; and only the versions git calls identical are reused.
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
        XCTAssertFalse(identical.contains(String(names[0].dropLast(".xcdatamodel".count))))
        var reusing: [String: ModelVersion] = [:]
        for version in workTree.versions where identical.contains(version.name) { reusing[version.name] = version }
        let full = try XCTUnwrap(
            try repository.bundle(
                atPath: bundle.path, commit: commit, label: "HEAD", versionOrder: nil, following: nil,
                cache: EntitySourceCache()))
        let reused = try XCTUnwrap(
            try repository.bundle(
                atPath: bundle.path, commit: commit, label: "HEAD", versionOrder: nil, following: nil,
                cache: EntitySourceCache(), reusing: reusing))
        XCTAssertEqual(reused.versions.map(\.name), full.versions.map(\.name))
        XCTAssertEqual(reused.versions.map(\.contentsPath), full.versions.map(\.contentsPath))
        XCTAssertEqual(reused.declaredCurrentVersion, full.declaredCurrentVersion)
        for (a, b) in zip(reused.versions, full.versions) {
            let (x, y) = (try XCTUnwrap(a.model), try XCTUnwrap(b.model))
            assertSame(x, y, a.name)
            XCTAssertTrue(x.location.file.hasPrefix("HEAD:"), x.location.file)
        }
    }
}
