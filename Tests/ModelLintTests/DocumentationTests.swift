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

final class DocumentationTests: XCTestCase {
    /// The rule list lives in docs/rules (generated); the README points there instead of keeping a copy.
    func testReadmePointsAtTheGeneratedRuleList() throws {
        let readme = try String(contentsOf: repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
        XCTAssertTrue(readme.contains("](docs/rules/README.md)"))
        XCTAssertFalse(readme.contains("<!-- rules:begin -->"))
    }

    /// The README is for a team deciding: the reference is in docs/.
    func testReadmeIsShort() throws {
        let readme = try String(contentsOf: repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let words = readme.split(whereSeparator: { $0.isWhitespace }).count
        XCTAssertLessThan(words, 2_000)
    }

    /// Every link of the README and docs/ leads somewhere: a file of the repository, and a heading of it for an
    /// anchor (GitHub's slugs). No tag is cited: there is none yet, so a `@v…` or `rev: v…` pin would fail.
    func testEveryLinkResolves() throws {
        let docs = repositoryRoot.appendingPathComponent("docs")
        var files = [repositoryRoot.appendingPathComponent("README.md")]
        for name in try FileManager.default.contentsOfDirectory(atPath: docs.path).sorted() where name.hasSuffix(".md")
        {
            files.append(docs.appendingPathComponent(name))
        }
        files.append(docs.appendingPathComponent("rules/README.md"))
        var checked = 0
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            let name = file.path.replacingOccurrences(of: repositoryRoot.path + "/", with: "")
            XCTAssertNil(
                text.range(of: #"modellint@v[0-9]|rev: v[0-9]"#, options: .regularExpression), "\(name) cites a tag")
            for link in Self.links(in: text) where !link.contains("://") && !link.hasPrefix("mailto:") {
                let parts = link.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
                let target =
                    parts[0].isEmpty ? file : file.deletingLastPathComponent().appendingPathComponent(parts[0])
                XCTAssertTrue(FileManager.default.fileExists(atPath: target.path), "\(name): \(link)")
                if parts.count == 2, let targetText = try? String(contentsOf: target, encoding: .utf8) {
                    XCTAssertTrue(Self.slugs(of: targetText).contains(parts[1]), "\(name): no heading for \(link)")
                }
                checked += 1
            }
        }
        XCTAssertGreaterThan(checked, 100)
    }

    /// `](target)` of every Markdown link outside code blocks.
    static func links(in text: String) -> [String] {
        var inCode = false
        var found: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") { inCode.toggle() }
            guard !inCode else { continue }
            var rest = Substring(line)
            while let open = rest.range(of: "](") {
                let after = rest[open.upperBound...]
                guard let close = after.firstIndex(of: ")") else { break }
                found.append(String(after[..<close]))
                rest = after[close...]
            }
        }
        return found
    }

    /// GitHub's anchors of a Markdown file's headings: lower case, punctuation dropped, spaces as hyphens.
    static func slugs(of text: String) -> Set<String> {
        var slugs: Set<String> = []
        var inCode = false
        for line in text.split(separator: "\n") {
            if line.hasPrefix("```") { inCode.toggle() }
            guard !inCode, line.hasPrefix("#") else { continue }
            let title = line.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces)
            slugs.insert(
                String(
                    title.lowercased().compactMap { c -> Character? in
                        c == " " ? "-" : (c.isLetter || c.isNumber || c == "-" || c == "_") ? c : nil
                    }))
        }
        return slugs
    }

    /// What `init` prints beside the file it writes cites docs/cli.md, and it is there.
    func testTheFilesInitCitesExist() throws {
        let directory = try makeTemporaryDirectory(self)
        try FileManager.default.copyItem(
            at: repositoryRoot.appendingPathComponent("Fixtures/Near.xcdatamodeld"),
            to: directory.appendingPathComponent("Near.xcdatamodeld"))
        let out = modellint(["init"], in: directory)
        XCTAssertEqual(out.exitCode, 0)
        let cited = out.standardOutput.components(separatedBy: " ").filter { $0.hasPrefix("docs/") }
        XCTAssertEqual(cited, ["docs/cli.md"])
        for path in cited {
            XCTAssertTrue(
                FileManager.default.fileExists(atPath: repositoryRoot.appendingPathComponent(path).path), path)
        }
    }

    func testReadmeStartsWithTheTwoCommands() throws {
        let readme = try String(contentsOf: repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let firstBlock = try XCTUnwrap(
            readme.components(separatedBy: "```sh\n").dropFirst().first?.components(separatedBy: "```").first)
        XCTAssertEqual(firstBlock, "swift run modellint check Fixtures/Near.xcdatamodeld\nswift test\n")
    }

    /// The repository stands alone: its docs, sources, tests, scripts and benchmarks cite no tracker issue and no
    /// document that is not in it. The only outside inputs are the corpus and schemas folders beside the clone,
    /// which the tests and CI read when present and skip when absent.
    func testNothingCitesWhatTheRepositoryDoesNotHold() throws {
        let fileManager = FileManager.default
        var files: [URL] = ["README.md", "CONTRIBUTING.md", "Package.swift", "action.yml"]
            .map { repositoryRoot.appendingPathComponent($0) }.filter { fileManager.fileExists(atPath: $0.path) }
        for folder in ["docs", "Sources", "Tests", "Scripts", "Benchmarks", "Plugins", "Fuzz", ".ci"] {
            let root = repositoryRoot.appendingPathComponent(folder)
            guard let walk = fileManager.enumerator(at: root, includingPropertiesForKeys: nil) else { continue }
            for case let url as URL in walk where !url.hasDirectoryPath { files.append(url) }
        }
        // Every Markdown file of the repository, by name: a bare Markdown file name must be one of them.
        var markdownNames: Set<String> = []
        if let walk = fileManager.enumerator(atPath: repositoryRoot.path) {
            for case let path as String in walk where path.hasSuffix(".md") && !path.hasPrefix(".build") {
                markdownNames.insert((path as NSString).lastPathComponent)
            }
        }
        var read = 0
        var problems: [String] = []
        for file in files {
            guard let text = try? String(contentsOf: file, encoding: .utf8) else { continue }
            read += 1
            let name = file.path.replacingOccurrences(of: repositoryRoot.path + "/", with: "")
            for match in Self.matches(#"\b[Ii]ssues? #?[0-9]+"#, in: text) { problems.append("\(name): \(match)") }
            for match in Self.matches(#"\.\./shared/[A-Za-z]+"#, in: text)
            where match != "../shared/corpus" && match != "../shared/schemas" {
                problems.append("\(name): \(match)")
            }
            for match in Self.matches(#"(?<![A-Za-z0-9_./$-])docs/[A-Za-z0-9_./-]*\.md"#, in: text)
            where !fileManager.fileExists(atPath: repositoryRoot.appendingPathComponent(match).path) {
                problems.append("\(name): \(match)")
            }
            for match in Self.matches(#"(?<![A-Za-z0-9_./$-])[A-Za-z0-9_-]+\.md\b"#, in: text)
            where !markdownNames.contains(match) {
                problems.append("\(name): \(match)")
            }
        }
        XCTAssertGreaterThan(read, 400)
        XCTAssertEqual(problems, [])
    }

    private static func matches(_ pattern: String, in text: String) -> [String] {
        guard let expression = try? NSRegularExpression(pattern: pattern) else { return ["bad pattern \(pattern)"] }
        let whole = NSRange(text.startIndex..., in: text)
        return expression.matches(in: text, range: whole).compactMap {
            Range($0.range, in: text).map { String(text[$0]) }
        }
    }

    func testEveryRuleDocumentsItself() {
        for rule in RuleRegistry.descriptions {
            XCTAssertGreaterThan(rule.summary.count, 20, rule.id)
            XCTAssertGreaterThan(rule.rationale.count, 80, rule.id)
            XCTAssertGreaterThan(rule.fix.count, 10, rule.id)
        }
    }
}

final class RuleDocumentationTests: XCTestCase {
    /// docs/rules is generated; this fails when a rule changed and the docs were not regenerated.
    func testCheckedInRuleDocsMatchTheGenerator() throws {
        let directory = repositoryRoot.appendingPathComponent("docs/rules")
        let expected = RuleDocumentation.files()
        for (name, text) in expected {
            let onDisk = try? String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
            XCTAssertEqual(
                onDisk, text, "docs/rules/\(name) is stale: run Scripts/generate-docs")
        }
        let present = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".md") }
        XCTAssertEqual(Set(present), Set(expected.map(\.0)), "docs/rules holds a page for a rule that no longer exists")
    }

    func testEveryRulePageHasItsParts() {
        for rule in RuleRegistry.descriptions {
            let page = RuleDocumentation.markdown(rule)
            XCTAssertTrue(page.hasPrefix("# `\(rule.id)`\n"), rule.id)
            XCTAssertTrue(page.contains("## Why\n"), rule.id)
            XCTAssertTrue(page.contains("## Fix\n"), rule.id)
            XCTAssertTrue(page.contains("## Triggers\n"), rule.id)
            XCTAssertTrue(page.contains("## Does not trigger\n"), rule.id)
        }
    }
}
