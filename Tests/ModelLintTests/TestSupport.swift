import Foundation
import XCTest
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

/// A fresh temporary folder; removing it is the caller's (`makeTemporaryDirectory`, `TemporaryDirectories`).
private func newTemporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("modellint-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// A fresh temporary folder, removed when the test ends.
func makeTemporaryDirectory(_ test: XCTestCase) throws -> URL {
    let url = try newTemporaryDirectory()
    test.addTeardownBlock { try? FileManager.default.removeItem(at: url) }
    return url
}

/// The repository's root, found from this file's path.
let repositoryRoot: URL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// `../shared/corpus` next to the repository, when this checkout has it.
/// `MODELLINT_HIDE_CORPUS=1` runs the suite as a fresh clone without `../shared` would (`.ci/run` does).
let corpusRoot: URL? = {
    if ProcessInfo.processInfo.environment["MODELLINT_HIDE_CORPUS"] == "1" { return nil }
    let url = repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus")
    return FileManager.default.fileExists(atPath: url.path) ? url : nil
}()

/// Every bundle in Fixtures/, and in ../shared/corpus when this checkout has it.
func fixtureAndCorpusBundles() -> [URL] {
    var bundles: [URL] = []
    for root in [repositoryRoot.appendingPathComponent("Fixtures")] + (corpusRoot.map { [$0] } ?? []) {
        let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
        while let url = walker?.nextObject() as? URL {
            guard url.pathExtension == "xcdatamodeld" else { continue }
            bundles.append(url)
            walker?.skipDescendants()
        }
    }
    return bundles
}

/// How many bundles `fixtureAndCorpusBundles()` must find, counted another way (every path below the roots
/// whose last component ends in `.xcdatamodeld`), so a count never has to be written into a test.
func expectedBundleCount() -> Int {
    let roots = [repositoryRoot.appendingPathComponent("Fixtures")] + (corpusRoot.map { [$0] } ?? [])
    return roots.reduce(0) { count, root in
        count
            + ((try? FileManager.default.subpathsOfDirectory(atPath: root.path)) ?? []).filter {
                $0.hasSuffix(".xcdatamodeld")
            }.count
    }
}

/// Every `xcmapping.xml` below `fixtures` and, when this checkout has it, below ../shared/corpus: its path below its
/// root and its bytes.
func mappingModelFiles(in fixtures: URL) throws -> [(path: String, xml: [UInt8])] {
    try ([fixtures] + (corpusRoot.map { [$0] } ?? [])).flatMap { root in
        try (FileManager.default.subpaths(atPath: root.path) ?? []).filter {
            $0.hasSuffix(".xcmappingmodel/xcmapping.xml")
        }.map { relative in
            (relative, try FileReader.readBytes(root.appendingPathComponent(relative).path, limit: 64 << 20))
        }
    }
}

func requireCorpus() throws -> URL {
    guard let corpusRoot else { throw XCTSkip("../shared/corpus is not present in this checkout") }
    return corpusRoot
}

/// Writes a bundle from version name -> model body (wrapped like rule examples).
@discardableResult
func writeBundle(
    in directory: URL, name: String = "Near", versions: [(String, String)], current: String? = nil
) throws -> URL {
    let bundle = directory.appendingPathComponent("\(name).xcdatamodeld")
    for (version, body) in versions {
        let folder = bundle.appendingPathComponent("\(version).xcdatamodel")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data((RuleExample.modelHeader + "\n" + body + "\n</model>\n").utf8).write(
            to: folder.appendingPathComponent("contents"))
    }
    if let current {
        try Data(RuleExample.currentVersionPlist(naming: current).utf8).write(
            to: bundle.appendingPathComponent(".xccurrentversion"))
    }
    return bundle
}

func lint(
    _ bundle: URL, configuration: Configuration? = nil, histories: [ShippedHistory] = [],
    mappingModels: [MappingModel] = []
) -> [Diagnostic] {
    let linter = Linter(
        configuration: configuration ?? Configuration(baseDirectory: bundle.deletingLastPathComponent().path))
    // Ordered as check orders it, with the evidence the bundle alone has (its current version).
    let loaded = BundleLoader.load(bundleURL: bundle, displayPath: bundle.lastPathComponent)
        .orderedByEvidence(mappingPairs: mappingModels.map { ($0.source, $0.destination) }) { nil }
    return Diagnostic.sortedForOutput(linter.lint(loaded, mappingModels: mappingModels, histories: histories))
}

/// Marks `folder` modified now, so a run that lists it is not kept whole by the run cache (nothing changed in the
/// last two seconds is): for tests of the file caches beneath it, which a kept run would never reach.
func modifiedNow(_ folder: URL) {
    try? FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: folder.path)
}

func modellint(_ arguments: [String], in directory: URL, variables: [String: String] = [:]) -> CommandOutput {
    ModelLintApp.run(arguments, environment: CommandEnvironment(workingDirectory: directory.path, variables: variables))
}

/// The built `modellint` executable (swift build puts it beside the test bundle), for tests of what only a real
/// process shows: its streams, signals and exit codes.
func builtExecutable() throws -> URL {
    // Linux runs the tests as an executable in the build folder; macOS loads a bundle from it.
    let candidates = [
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
        Bundle(for: BundleToken.self).bundleURL.deletingLastPathComponent(),
    ]
    let url =
        candidates.map { $0.appendingPathComponent("modellint") }.first {
            FileManager.default.isExecutableFile(atPath: $0.path)
        }
        ?? candidates[0].appendingPathComponent("modellint")
    guard FileManager.default.isExecutableFile(atPath: url.path) else {
        throw XCTSkip("no built modellint beside the tests at \(url.path)")
    }
    return url
}

private final class BundleToken {}

/// Runs a shell command line (for redirections the test is about); returns exit code, stdout and stderr.
func shell(_ command: String, in directory: URL? = nil) throws -> (code: Int32, out: String, err: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", command]
    if let directory { process.currentDirectoryURL = directory }
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let o = out.fileHandleForReading.readDataToEndOfFile()
    let e = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self))
}

func shellQuoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }

/// One reporter of every format `check` has.
func allReporters() -> [any Reporter] {
    let paths = PathRelativizer(root: "/", workingDirectory: "/")
    return [
        TextReporter(useColor: false), JSONReporter(), SARIFReporter(rules: RuleRegistry.descriptions, paths: paths),
        GitHubReporter(paths: paths), JUnitReporter(paths: paths), CheckstyleReporter(paths: paths),
        MarkdownReporter(paths: paths),
    ]
}

/// Runs git in `directory` with a test identity and no signing; skips the test when git is missing or fails.
@discardableResult
func git(_ arguments: [String], in directory: URL) throws -> String {
    let result = try shell(
        "git -c user.email=t@example.com -c user.name=t -c commit.gpgsign=false "
            + arguments.map(shellQuoted).joined(separator: " "), in: directory)
    guard result.code == 0 else { throw XCTSkip("git \(arguments.joined(separator: " ")) failed: \(result.err)") }
    return result.out
}

/// Replaces every `old` in the text file at `url` with `new`. Throws when the file holds no `old`: an edit the
/// fixture no longer allows fails the test instead of testing the file unedited.
func replaceInFile(_ url: URL, _ old: String, with new: String) throws {
    struct NothingToReplace: Error, CustomStringConvertible {
        var description: String
    }
    let text = try String(contentsOf: url, encoding: .utf8)
    guard text.contains(old) else { throw NothingToReplace(description: "\(url.lastPathComponent) holds no \(old)") }
    try Data(text.replacingOccurrences(of: old, with: new).utf8).write(to: url)
}

/// The `diagnostics` of a `--format json` report (none when it is not one).
func jsonDiagnostics(_ out: CommandOutput) -> [[String: Any]] {
    ((try? JSONSerialization.jsonObject(with: Data(out.standardOutput.utf8))) as? [String: Any])?["diagnostics"]
        as? [[String: Any]] ?? []
}

/// `rule severity from>to Entity.property @line`, one per finding (without ` @line` when `lines` is false).
func summary(_ diagnostics: [[String: Any]], lines: Bool = true) -> [String] {
    diagnostics.map { d in
        let versions = "\(d["fromVersion"] as? String ?? "-")>\(d["version"] as? String ?? "-")"
        let subject =
            "\(d["ruleId"]!) \(d["severity"]!) \(versions) \(d["entity"] as? String ?? "-").\(d["property"] as? String ?? "-")"
        return lines ? subject + " @\(d["line"] as? Int ?? 0)" : subject
    }
}

/// A reproducible random stream (SplitMix64), so a failing case can be replayed from its seed.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// What differs between two models in everything a rule reads, their element locations compared position for
/// position: nothing when they are the same model.
func modelDifferences(_ a: Model, _ b: Model) -> [String] {
    var differences: [String] = []
    func compare<T: Equatable>(_ name: String, _ x: T, _ y: T) {
        if x != y { differences.append("\(name): \(x) is not \(y)") }
    }
    compare("location", a.location, b.location)
    compare("header", a.header, b.header)
    if a.entities != b.entities {
        let first = a.entities.indices.first { $0 < b.entities.count && a.entities[$0] != b.entities[$0] }
        differences.append(
            first.map { "entities: \(a.entities[$0]) is not \(b.entities[$0])" }
                ?? "entities: \(a.entities.count) is not \(b.entities.count) of them")
    }
    compare("configurations", a.configurations, b.configurations)
    compare("fetch requests", a.fetchRequests, b.fetchRequests)
    compare("unknown XML", a.unknownXML, b.unknownXML)
    compare("composites", a.composites, b.composites)
    compare("content keys", a.contentKeys, b.contentKeys)
    // Locations compared position for position, not only as equal values.
    compare("element locations", a.entities.flatMap(\.elementLocations), b.entities.flatMap(\.elementLocations))
    return differences
}

/// Two models equal in everything a rule reads (`modelDifferences`).
func assertSameModel(
    _ a: Model, _ b: Model, _ label: String, file: StaticString = #filePath, line: UInt = #line
) {
    for difference in modelDifferences(a, b) { XCTFail("\(label): \(difference)", file: file, line: line) }
}

/// Fresh temporary folders for one Swift Testing test: the suite's instance (one per test) holds them, and they are
/// removed when it goes, as `makeTemporaryDirectory` removes an XCTest case's.
final class TemporaryDirectories: Sendable {
    private let made = Locked([URL]())

    func make() throws -> URL {
        let url = try newTemporaryDirectory()
        made.withLock { $0.append(url) }
        return url
    }

    deinit {
        for url in made.withLock({ $0 }) { try? FileManager.default.removeItem(at: url) }
    }
}

/// What a Swift Testing test throws when its own setting-up fails (a fixture that does not parse, git refusing):
/// a failure, where XCTest's suites would have skipped.
struct TestSetupFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
