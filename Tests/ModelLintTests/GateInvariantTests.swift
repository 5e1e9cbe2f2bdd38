import Foundation
import XCTest
import ModelLintCommands

/// The pull-request gate is a function of the change (issue 27, item 3): with every fixture bundle and, when
/// ../shared is beside the repository, every corpus bundle committed to a repository of its own, a commit that
/// changes no model file reports nothing new, and neither does a tree compared with itself.
final class GateInvariantTests: XCTestCase {
    func testAChangeThatTouchesNoModelReportsNothingNew() throws {
        let bundles = fixtureAndCorpusBundles()
        XCTAssertEqual(bundles.count, expectedBundleCount())
        for bundle in bundles {
            let directory = try makeTemporaryDirectory(self)
            let name = bundle.lastPathComponent
            try FileManager.default.copyItem(at: bundle, to: directory.appendingPathComponent(name))
            _ = try shell("chmod -R u+w .", in: directory)
            try git(["init", "-q", "-b", "main"], in: directory)
            try git(["add", "-A"], in: directory)
            try git(["commit", "-qm", "base"], in: directory)
            try Data("notes\n".utf8).write(to: directory.appendingPathComponent("README.md"))
            try git(["add", "README.md"], in: directory)
            try git(["commit", "-qm", "a change that touches no model"], in: directory)
            // A fixture is also compared with itself; a corpus bundle (up to 117 versions) once, across the commit.
            let isFixture = bundle.path.hasPrefix(repositoryRoot.path + "/")
            for ref in isFixture ? ["HEAD", "HEAD~1"] : ["HEAD~1"] {
                let out = modellint(
                    ["check", name, "--against", ref, "--only-new", "--notes", "--format", "json"], in: directory)
                XCTAssertNotEqual(out.exitCode, 2, "\(bundle.path) against \(ref): \(out.standardError)")
                // A version folder with no files (a fixture of a missing contents) is nothing git can commit: it
                // exists in the work tree alone, so its finding is the work tree's.
                let uncommittable = summary(jsonDiagnostics(out), lines: false).filter {
                    !$0.hasPrefix("missing-contents ")
                }
                XCTAssertEqual(uncommittable, [], "\(bundle.path) against \(ref)")
            }
        }
    }
}
