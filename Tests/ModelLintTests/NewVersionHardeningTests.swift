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

/// `new-version` never traps, never writes an unparseable pointer, and leaves no half-done
/// bundle (interrupted runs by signal are in Scripts/test-crash-safety).
final class NewVersionHardeningTests: XCTestCase {
    private func bundle(_ versions: [String], current: String) throws -> (URL, URL) {
        let directory = try makeTemporaryDirectory(self)
        let url = try writeBundle(
            in: directory, versions: versions.map { ($0, "<entity name=\"Thing\"/>") }, current: current)
        return (directory, url)
    }

    private func listing(_ directory: URL) throws -> [String] {
        try FileManager.default.subpathsOfDirectory(atPath: directory.path).sorted()
    }

    func testANumberThatCannotGrowAsksForAName() throws {
        let (directory, _) = try bundle(["Near 9223372036854775807"], current: "Near 9223372036854775807")
        let out = modellint(["new-version", "Near.xcdatamodeld"], in: directory)
        XCTAssertEqual(out.exitCode, 2)
        XCTAssertEqual(
            out.standardError,
            "modellint: cannot tell what comes after 'Near 9223372036854775807'; give the name with --name\n")
    }

    func testMarkupCharactersInTheNameGiveAParseablePointer() throws {
        for name in ["A&B", "Lt<3", "Q\"uote's"] {
            let (directory, url) = try bundle(["Near 1"], current: "Near 1")
            let out = modellint(["new-version", "Near.xcdatamodeld", "--name", name], in: directory)
            XCTAssertEqual(out.exitCode, 0, out.standardError)
            let loaded = BundleLoader.load(bundleURL: url, displayPath: "Near.xcdatamodeld")
            XCTAssertEqual(loaded.currentVersionFile, .present, name)
            XCTAssertEqual(loaded.declaredCurrentVersion, name)
            XCTAssertEqual(Set(loaded.versions.map(\.name)), ["Near 1", name])
        }
    }

    func testNamesWithASlashAreRefusedAndTheSuffixIsDropped() throws {
        let (directory, url) = try bundle(["Near 1"], current: "Near 1")
        for bad in ["../evil", "a/b", ".hidden", "", "tab\there"] {
            let out = modellint(["new-version", "Near.xcdatamodeld", "--name", bad], in: directory)
            XCTAssertEqual(out.exitCode, 2, bad)
            XCTAssertTrue(out.standardError.contains("is not a usable version name"), out.standardError)
        }
        XCTAssertEqual(
            modellint(["new-version", "Near.xcdatamodeld", "--name", "Near 2.xcdatamodel"], in: directory).exitCode, 0)
        XCTAssertEqual(BundleLoader.load(bundleURL: url, displayPath: "N").versions.map(\.name), ["Near 1", "Near 2"])
        XCTAssertEqual(try listing(directory).filter { $0.contains("modellint") }, [], "no staging folder left")
    }

    /// A version folder holding something that is not a regular file: the copy fails, and nothing is left behind.
    func testAFailedCopyLeavesNothingAndSaysSo() throws {
        let (directory, url) = try bundle(["Near 1"], current: "Near 1")
        XCTAssertEqual(mkfifo(url.appendingPathComponent("Near 1.xcdatamodel/layout").path, 0o644), 0)
        let before = try listing(directory)
        let out = modellint(["new-version", "Near.xcdatamodeld"], in: directory)
        XCTAssertEqual(out.exitCode, 2)
        XCTAssertEqual(
            out.standardError,
            "modellint: could not copy Near 1 (layout in it is a FIFO, not a regular file); Near.xcdatamodeld is unchanged\n"
        )
        XCTAssertEqual(try listing(directory), before)
    }

    /// What a run killed between moving the copy in and repointing leaves: the rerun finishes the job.
    func testARerunFinishesAnInterruptedRun() throws {
        let (directory, url) = try bundle(["Near 1"], current: "Near 1")
        try FileManager.default.copyItem(
            at: url.appendingPathComponent("Near 1.xcdatamodel"), to: url.appendingPathComponent("Near 2.xcdatamodel"))
        try FileManager.default.createDirectory(
            at: url.appendingPathComponent(".modellint-staging-0000"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent(".Near.xcdatamodeld.modellint-new-version-1111/Near 2.xcdatamodel"),
            withIntermediateDirectories: true)
        let out = modellint(["new-version", "Near.xcdatamodeld"], in: directory)
        XCTAssertEqual(out.exitCode, 0, out.standardError)
        XCTAssertEqual(
            out.standardOutput,
            """
            removed .Near.xcdatamodeld.modellint-new-version-1111, left by an interrupted new-version
            removed Near.xcdatamodeld/.modellint-staging-0000, left by an interrupted new-version
            finished an interrupted new-version: Near.xcdatamodeld/Near 2.xcdatamodel was already an unchanged copy of Near 1; made it the current version.

            """)
        XCTAssertEqual(BundleLoader.load(bundleURL: url, displayPath: "N").declaredCurrentVersion, "Near 2")
        XCTAssertEqual(try listing(directory).filter { $0.contains("modellint") }, [])
        // An edited copy is not an interrupted run: refused, not overwritten.
        try Data("changed".utf8).write(to: url.appendingPathComponent("Near 2.xcdatamodel/contents"))
        let second = modellint(["new-version", "Near.xcdatamodeld", "--name", "Near 2"], in: directory)
        XCTAssertEqual(second.standardError, "modellint: Near.xcdatamodeld already has a version named Near 2\n")
    }
}
