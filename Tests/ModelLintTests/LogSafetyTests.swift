import Foundation
#if canImport(FoundationXML)
    import FoundationXML
#endif
import XCTest
import ModelLintSupport
import ModelLintCommands
import ModelLintGather

/// One set of hostile names through every command and format; each output line is read
/// with the GitHub runner's own rules (ReportInjectionTests.runnerCommand: it trims Unicode whitespace, then
/// looks for `::`, and finds `##[` anywhere).
final class LogSafetyTests: XCTestCase {
    /// Names that become a workflow command once the runner trims the whitespace in front of them.
    static let forged = [
        "\u{3000}::stop-commands::a", "\u{00A0}::error::b", "\u{2003}::warning::c", "\u{1680}##[add-mask]d",
    ]

    private func repository() throws -> (URL, bundle: String) {
        let directory = try makeTemporaryDirectory(self)
        let bundleName = Self.forged[0]
        let entity =
            "<entity name=\"Team\"><attribute name=\"at@org/team https://evil.example www.evil.example\" optional=\"YES\" attributeType=\"String\"/></entity>"
        let changed =
            "<entity name=\"Team\"><attribute name=\"at@org/team https://evil.example www.evil.example\" optional=\"YES\" attributeType=\"Integer 16\"/></entity>"
        try writeBundle(
            in: directory, name: bundleName,
            versions: [(Self.forged[1] + " 1", entity), (Self.forged[2] + " 2", changed)],
            current: Self.forged[2] + " 2")
        return (directory, bundleName + ".xcdatamodeld")
    }

    private func assertNoForgedCommand(
        _ out: CommandOutput, _ label: String, allowed: Int = 0, file: StaticString = #filePath, line: UInt = #line
    ) {
        var commands: [String] = []
        for text in [out.standardOutput, out.standardError] {
            for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
                if let command = ReportInjectionTests.runnerCommand(String(raw)) {
                    commands.append(command.name + " " + String(raw.prefix(60)))
                }
                XCTAssertFalse(
                    raw.unicodeScalars.contains { $0.value != 0x09 && ReportText.isUnsafe($0.value) },
                    "\(label): raw control in \(raw.debugDescription)", file: file, line: line)
            }
        }
        if allowed == 0 {
            XCTAssertEqual(commands, [], "\(label) writes workflow commands", file: file, line: line)
        } else {
            XCTAssertEqual(commands.count, allowed, "\(label): \(commands)", file: file, line: line)
            XCTAssertTrue(
                commands.allSatisfy { ["error", "warning", "notice"].contains(String($0.prefix { $0 != " " })) },
                "\(label): \(commands)", file: file, line: line)
        }
    }

    func testEveryCommandAndFormatIsSafeInACILog() throws {
        let (directory, bundle) = try repository()
        for format in ["text", "json", "sarif", "junit", "checkstyle", "markdown"] {
            let out = modellint(["check", bundle, "--format", format, "--notes"], in: directory)
            XCTAssertEqual(out.exitCode, 1, "\(format): \(out.standardError)")
            assertNoForgedCommand(out, "check --format \(format)")
        }
        let github = modellint(["check", bundle, "--format", "github"], in: directory)
        let findings = jsonDiagnostics(modellint(["check", bundle, "--format", "json"], in: directory)).count
        XCTAssertGreaterThan(findings, 0)
        assertNoForgedCommand(github, "check --format github", allowed: findings)
        // --notes: every finding annotated, notes too.
        let actions = modellint(["check", bundle, "--notes"], in: directory, variables: ["GITHUB_ACTIONS": "true"])
        assertNoForgedCommand(actions, "check on GitHub Actions", allowed: findings)
        for format in ["text", "json", "markdown"] {
            assertNoForgedCommand(
                modellint(["diff", bundle, "--format", format], in: directory), "diff --format \(format)")
        }
        assertNoForgedCommand(modellint(["hashes", bundle], in: directory), "hashes")
        assertNoForgedCommand(modellint(["lock", bundle], in: directory), "lock")
        assertNoForgedCommand(modellint(["check", bundle], in: directory), "check with the lock")
        assertNoForgedCommand(
            modellint(["new-version", bundle, "--name", Self.forged[3] + " 3"], in: directory), "new-version")
        // Standard error: a configuration key, a lock key and a version name in error messages.
        try Data("{ \"\(Self.forged[0])\": 1 }".utf8).write(to: directory.appendingPathComponent(".modellint.json"))
        let badConfig = modellint(["check", bundle], in: directory)
        XCTAssertEqual(badConfig.exitCode, 2)
        assertNoForgedCommand(badConfig, "a configuration error")
        try FileManager.default.removeItem(at: directory.appendingPathComponent(".modellint.json"))
        assertNoForgedCommand(
            modellint(["diff", bundle, Self.forged[0], Self.forged[1]], in: directory), "diff of unknown versions")
        let store = repositoryRoot.appendingPathComponent("Fixtures/Stores/Hostile/LogForgery.sqlite").path
        let described = modellint(["store", store, bundle], in: directory)
        XCTAssertEqual(described.exitCode, 1, described.standardError)
        XCTAssertTrue(
            described.standardOutput.contains(
                "a Core Data SQLite\\n::stop-commands::y\\u{1B}[2J\\u{7}##\\u{5B}add-mask]z store"),
            described.standardOutput)
        assertNoForgedCommand(described, "store")
        for format in ["json", "sarif", "github", "markdown"] {
            assertNoForgedCommand(
                modellint(["store", store, bundle, "--format", format], in: directory), "store --format \(format)",
                allowed: format == "github" ? 1 : 0)
        }
    }

    // Machine formats printed to a CI log hold no `##[` either, and still parse to the names as written.
    func testMachineFormatsEscapeTheLegacySyntaxWithTheirOwnEscapes() throws {
        let directory = try makeTemporaryDirectory(self)
        try writeBundle(
            in: directory,
            versions: [
                (
                    "Near 1",
                    "<entity name=\"mask##[add-mask]secret\"><relationship name=\"r\" optional=\"YES\" maxCount=\"1\" deletionRule=\"Nullify\" destinationEntity=\"mask##[add-mask]secret\"/></entity>"
                )
            ], current: "Near 1")
        for format in ["json", "sarif", "junit", "checkstyle"] {
            let out = modellint(["check", "--format", format], in: directory)
            XCTAssertFalse(out.standardOutput.contains("##["), format)
            XCTAssertFalse(
                out.standardOutput.contains("\\u{5B}"), "\(format): the format's own escape, not the filter's")
            if format == "json" || format == "sarif" {
                let parsed = try JSONSerialization.jsonObject(with: Data(out.standardOutput.utf8))
                XCTAssertTrue("\(parsed)".contains("mask##[add-mask]secret"), format)
            } else {
                let parser = XMLParser(data: Data(out.standardOutput.utf8))
                XCTAssertTrue(parser.parse() && parser.parserError == nil, format)
                XCTAssertTrue(out.standardOutput.contains("mask##&#91;add-mask]secret"), format)
            }
        }
    }

    // Case 12: a Markdown report pings no one and links nowhere.
    func testMarkdownNeutralisesMentionsAndLinks() throws {
        let (directory, bundle) = try repository()
        let out = modellint(["check", bundle, "--format", "markdown"], in: directory)
        XCTAssertTrue(
            out.standardOutput.contains("at@\u{200B}org/team https:\u{200B}//evil.example w\u{200B}ww.evil.example"),
            out.standardOutput)
        XCTAssertNil(out.standardOutput.range(of: "@[A-Za-z]", options: .regularExpression))
        let diff = modellint(["diff", bundle, "--format", "markdown"], in: directory)
        XCTAssertNil(diff.standardOutput.range(of: "@[A-Za-z]", options: .regularExpression), diff.standardOutput)
    }

    func testTheFilterFollowsTheRunnersTrim() {
        func filtered(_ pieces: [String]) -> String {
            let sink = OutputSink(logSafe: true)
            for piece in pieces { sink.write(piece) }
            sink.flush()
            return sink.string
        }
        XCTAssertEqual(filtered(["\u{3000}::stop-commands::x\n"]), "\u{3000}\\u{3A}:stop-commands::x\n")
        // Split across writes, inside the whitespace, between the colons, inside a multi-byte character.
        XCTAssertEqual(
            filtered(["  \u{00A0}", ":", ":error::x\nok :: here\n"]), "  \u{00A0}\\u{3A}:error::x\nok :: here\n")
        XCTAssertEqual(
            filtered(["a ##", "[add-mask]b\n", "\u{1B}[2J\u{7}\r\n"]), "a ##\\u{5B}add-mask]b\n\\u{1B}[2J\\u{7}\\r\n")
        XCTAssertEqual(filtered(["\t:", "x\n:"]), "\t:x\n:")
        // modellint's colours pass; any other escape sequence is written visibly.
        XCTAssertEqual(
            filtered(["\u{1B}[1;33mwarning\u{1B}[0m: x\n\u{1B}[8mhidden\u{1B}[1", "m\n"]),
            "\u{1B}[1;33mwarning\u{1B}[0m: x\n\\u{1B}[8mhidden\u{1B}[1m\n")
        XCTAssertEqual(
            filtered(["\u{1B}[1m::error::x\n", "\u{1B}]0;title\u{7}\n"]), "\u{1B}[1m::error::x\n\\u{1B}]0;title\\u{7}\n"
        )
        let sink = OutputSink(logSafe: true)
        sink.passing { sink.write("::error file=a::b\n") }
        sink.write("::error::c\n")
        sink.flush()
        XCTAssertEqual(sink.string, "::error file=a::b\n\\u{3A}:error::c\n")
    }

    /// The filter appends runs of printable ASCII at once when its input is contiguous, and goes byte by byte
    /// otherwise: both give the same bytes for any input cut anywhere, and JSON strings written in runs parse back.
    func testRunsAndSingleBytesFilterTheSame() throws {
        let alphabet: [[UInt8]] = [
            Array("a".utf8), Array("#".utf8), Array("[".utf8), Array(":".utf8), Array(" ".utf8), [0x0A], [0x0D],
            [0x1B], Array("[1m".utf8), Array("\u{3000}".utf8), Array("\u{202E}".utf8), [0xC3], [0xA9], [0xFF], [0x7F],
            Array("\"".utf8), Array("\\".utf8), Array("##[".utf8), Array("plain text".utf8), [0x09], Array("  ".utf8),
        ]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<400 {
            let bytes = (0..<Int.random(in: 0...40, using: &generator)).flatMap { _ in
                alphabet.randomElement(using: &generator)!
            }
            var cuts = (0..<Int.random(in: 0...4, using: &generator)).map { _ in
                Int.random(in: 0...bytes.count, using: &generator)
            }
            cuts = ([0] + cuts.sorted() + [bytes.count])
            var inRuns = LogSafeFilter()
            var byByte = LogSafeFilter()
            var a: [UInt8] = []
            var b: [UInt8] = []
            for (from, to) in zip(cuts, cuts.dropFirst()) {
                inRuns.filter(Array(bytes[from..<to]), into: &a)
                byByte.filter(bytes[from..<to].lazy.map { $0 }, into: &b)
            }
            inRuns.finish(into: &a)
            byByte.finish(into: &b)
            XCTAssertEqual(a, b, "\(bytes) cut at \(cuts)")
            let text = String(decoding: bytes, as: UTF8.self)
            let json = JSONValue.string(text).serialized()
            XCTAssertEqual(try JSONValue.parse(Data(json.utf8), json5: false).stringValue, text, "\(bytes)")
            XCTAssertFalse(json.contains("##["), json)
        }
    }
}
