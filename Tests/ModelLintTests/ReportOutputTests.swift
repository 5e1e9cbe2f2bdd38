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

/// A report that cannot be written is a clear error (exit 3), never a trap; a reader that
/// goes away ends the run quietly.
final class ReportWriteFailureTests: XCTestCase {
    func testAFullDiskClosedStdoutAndAClosedPipe() throws {
        let bin = shellQuoted(try builtExecutable().path)
        let fixtures = shellQuoted(repositoryRoot.appendingPathComponent("Fixtures").path)
        let full = try shell("\(bin) check \(fixtures) > /dev/full")
        XCTAssertEqual(full.code, 3)
        XCTAssertEqual(full.err, "modellint: cannot write the report: No space left on device\n")
        let closed = try shell("\(bin) check \(fixtures) >&-")
        XCTAssertEqual(closed.code, 3)
        XCTAssertEqual(closed.err, "modellint: cannot write the report: Bad file descriptor\n")
        // The fixtures' SARIF report (325 KB) is five times a pipe's buffer: the writer meets the closed pipe for
        // certain.
        let errors = shellQuoted(try makeTemporaryDirectory(self).appendingPathComponent("stderr").path)
        let piped = try shell(
            "\(bin) check \(fixtures) --format sarif 2>\(errors) | head -c 10 > /dev/null; echo $? $(wc -c < \(errors))"
        )
        XCTAssertEqual(piped.out, "0 0\n", "head succeeds and modellint says nothing")
        // Its own exit code, not a signal's (141) or a trap's (132).
        let status = try shell(
            "bash -c \(shellQuoted("\(bin) check \(fixtures) --format json | head -c 10 > /dev/null; echo ${PIPESTATUS[0]}"))"
        )
        XCTAssertEqual(status.out, "1\n")
    }
}

/// A megabyte name in 300 findings must not make a report of hundreds of megabytes.
final class OutputAmplificationTests: XCTestCase {
    /// The issue's case is a 1 MB name and 300 findings (release build: 204 KB of JSON, 23 MB peak, 2.7 s); a
    /// debug build takes minutes for that, so here the name is 200,000 characters and the findings 60.
    func testAMegabyteNameIsShortenedInEveryFormat() throws {
        let directory = try makeTemporaryDirectory(self)
        let name = String(repeating: "E", count: 200_000)
        var body = "<entity name=\"\(name)\">\n"
        for i in 0..<60 { body += "<attribute name=\"a\(i)\" optional=\"YES\" attributeType=\"Int64\"/>\n" }
        body += "</entity>"
        try writeBundle(in: directory, versions: [("Near 1", body)], current: "Near 1")
        let shortened = String(repeating: "E", count: 64) + "…(200000 characters)"
        XCTAssertEqual(ReportText.shortenedName(name), shortened)
        let out = modellint(["check", "--format", "json"], in: directory)
        XCTAssertEqual(out.exitCode, 1)
        let report = LintReport(
            bundles: [BundleSummary(path: "Near.xcdatamodeld", currentVersion: "Near 1", versions: ["Near 1"])],
            diagnostics: lint(directory.appendingPathComponent("Near.xcdatamodeld")))
        XCTAssertEqual(report.diagnostics.count, 60)
        let empty = LintReport(bundles: report.bundles, diagnostics: [])
        for reporter in allReporters() {
            let text = reporter.render(report)
            // What the findings add (SARIF's rule catalog is there either way): less than the one name's size.
            let added = text.utf8.count - reporter.render(empty).utf8.count
            XCTAssertLessThan(added, 200_000, "\(type(of: reporter)): \(added) bytes for 60 findings")
            XCTAssertTrue(text.contains(shortened + ".a59"), "\(type(of: reporter))")
        }
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(out.standardOutput.utf8)) as? [String: Any])
        let first = try XCTUnwrap((json["diagnostics"] as? [[String: Any]])?.first)
        XCTAssertEqual(first["entity"] as? String, shortened)
        XCTAssertEqual(
            first["message"] as? String,
            "\(shortened).a0 has attributeType \"Int64\", which is not a Core Data type (did you mean Integer 64?)")
    }

    func testAnOverlongMessageIsCutInTheMiddle() {
        let words = (0..<2_000).map { "w\($0)" }.joined(separator: " ")
        let bounded = ReportText.boundedMessage(words)
        XCTAssertEqual(
            bounded.utf8.count,
            ReportText.messageLimit / 2 + ReportText.messageLimit / 4
                + "…(\(words.utf8.count - 3072) characters omitted)…".utf8.count)
        XCTAssertTrue(bounded.hasPrefix("w0 w1 w2"))
        XCTAssertTrue(bounded.hasSuffix("w1998 w1999"))
        XCTAssertEqual(ReportText.boundedMessage("short message"), "short message")
    }
}

/// Names from model files cannot write lines of their own into a report or a CI log, and
/// every report still parses with a real parser.
final class ReportInjectionTests: XCTestCase {
    /// The GitHub Actions runner's two command parsers (actions/runner, ActionCommand.cs): v2 `::name props::data`
    /// after trimming leading space, and the legacy `##[name props]data` found anywhere in the line.
    static func runnerCommand(_ line: String) -> (name: String, data: String)? {
        let registered: Set<String> = [
            "error", "warning", "notice", "debug", "group", "endgroup", "add-mask", "stop-commands",
            "set-output", "set-env", "add-path", "save-state", "add-matcher", "remove-matcher", "echo",
        ]
        let trimmed = String(line.drop { $0.isWhitespace })
        if trimmed.hasPrefix("::"), let end = trimmed.dropFirst(2).range(of: "::") {
            let info = trimmed[trimmed.index(trimmed.startIndex, offsetBy: 2)..<end.lowerBound]
            let name = String(info.split(separator: " ", maxSplits: 1).first ?? "")
            if registered.contains(name) { return (name, String(trimmed[end.upperBound...])) }
        }
        if let prefix = line.range(of: "##["), let close = line[prefix.upperBound...].firstIndex(of: "]") {
            let name = String(line[prefix.upperBound..<close].split(separator: " ", maxSplits: 1).first ?? "")
            if registered.contains(name) { return (name, String(line[line.index(after: close)...])) }
        }
        return nil
    }

    static func unescapeData(_ text: String) -> String {
        text.replacingOccurrences(of: "%0D", with: "\r").replacingOccurrences(of: "%0A", with: "\n")
            .replacingOccurrences(of: "%25", with: "%")
    }

    private func hostileBundle() throws -> (URL, [Diagnostic]) {
        let directory = try makeTemporaryDirectory(self)
        // In the XML: a line break and a workflow command, a tab, a bidi override, a C1 control, the legacy syntax.
        // (XML 1.0 cannot carry ESC or BEL: those come in the version folder's name.)
        let body = """
            <entity name="A&#10;::stop-commands::hidethem&#10;">
                <attribute name="x&#9;[31mred" attributeType="Int64"/>
                <attribute name="&#x202E;gnp.exe" attributeType="Int64"/>
                <attribute name="c1&#x85;next&#13;::error::forged" attributeType="Int64"/>
                <attribute name="mask##[add-mask]secret" attributeType="Int64"/>
            </entity>
            """
        // And in a version folder name: a line break, U+FFFE (which XML cannot carry) and ESC.
        let version = "Near 1\n::warning::x\u{FFFE}\u{1B}[2J\u{7}"
        let bundle = try writeBundle(in: directory, versions: [(version, body)], current: version)
        let diagnostics = lint(bundle)
        XCTAssertEqual(diagnostics.map(\.ruleId), Array(repeating: "unknown-attribute-type", count: 4))
        return (directory, diagnostics)
    }

    func testEveryFormatRendersHostileNamesSafelyAndParses() throws {
        let (_, diagnostics) = try hostileBundle()
        let report = LintReport(
            bundles: [BundleSummary(path: "Near.xcdatamodeld", currentVersion: "v", versions: ["v"])],
            diagnostics: diagnostics)
        let unsafe = CharacterSet(charactersIn: Unicode.Scalar(0)...Unicode.Scalar(0x1F)).union(
            CharacterSet(charactersIn: Unicode.Scalar(0x7F)...Unicode.Scalar(0x9F))
        )
        .union(
            CharacterSet(
                charactersIn:
                    "\u{202A}\u{202B}\u{202C}\u{202D}\u{202E}\u{2066}\u{2067}\u{2068}\u{2069}\u{200E}\u{200F}\u{2028}\u{2029}\u{FFFE}\u{FFFF}"
            ))
        for reporter in allReporters() {
            let text = reporter.render(report)
            let name = "\(type(of: reporter))"
            // Nothing unsafe but the line breaks between lines (and none inside a line's content).
            XCTAssertNil(
                text.replacingOccurrences(of: "\n", with: "").rangeOfCharacter(from: unsafe),
                "\(name): \(text.debugDescription)")
            switch reporter {
            case is JSONReporter, is SARIFReporter:
                XCTAssertNoThrow(try JSONSerialization.jsonObject(with: Data(text.utf8)), name)
            case is JUnitReporter, is CheckstyleReporter:
                let parser = XMLParser(data: Data(text.utf8))
                XCTAssertTrue(parser.parse(), name)
                XCTAssertNil(parser.parserError, "\(name): \(String(describing: parser.parserError))")
            case is MarkdownReporter:
                // One table row per error and warning: a hostile name neither ends a row nor starts a new one.
                let rows = text.split(separator: "\n").filter { $0.hasPrefix("| ❌") || $0.hasPrefix("| ⚠️") }
                XCTAssertEqual(rows.count, diagnostics.filter { $0.severity != .note }.count, text)
                for row in rows {
                    XCTAssertEqual(
                        row.replacingOccurrences(of: "\\|", with: "").filter { $0 == "|" }.count, 5, String(row))
                }
            case is GitHubReporter:
                let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
                XCTAssertEqual(lines.count, diagnostics.count, "one command per finding")
                for (line, d) in zip(lines, diagnostics) {
                    let command = try XCTUnwrap(Self.runnerCommand(String(line)), String(line))
                    XCTAssertEqual(command.name, "error")
                    XCTAssertFalse(Self.unescapeData(command.data).contains("\u{1B}"))
                    XCTAssertTrue(
                        Self.unescapeData(command.data).hasPrefix(ReportText.escaped(d.message).prefix(20).description)
                            || d.message.contains("\n"), command.data)
                }
            default:
                // Text: exactly two lines per finding and the summary; no line is a workflow command.
                let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
                XCTAssertEqual(lines.count, diagnostics.count * 2 + 1, text)
                for line in lines {
                    XCTAssertNil(Self.runnerCommand(String(line)), "\(name) line is a command: \(line)")
                }
            }
        }
    }

    /// Under GITHUB_ACTIONS=true, with no --format, check prints text and annotations: together, the runner sees
    /// exactly one command per finding, all of them annotations.
    func testTheDefaultGitHubActionsOutputHoldsOnlyOurAnnotations() throws {
        let (directory, diagnostics) = try hostileBundle()
        let out = modellint(["check"], in: directory, variables: ["GITHUB_ACTIONS": "true"])
        let commands = out.standardOutput.split(separator: "\n").compactMap { Self.runnerCommand(String($0)) }
        XCTAssertEqual(commands.map(\.name), Array(repeating: "error", count: diagnostics.count))
    }

    func testDiffTextIsLogSafe() throws {
        let directory = try makeTemporaryDirectory(self)
        try writeBundle(
            in: directory,
            versions: [
                (
                    "Near 1",
                    "<entity name=\"::stop-commands::x\"><attribute name=\"a&#10;##[add-mask]b\" optional=\"YES\" attributeType=\"String\"/></entity>"
                ),
                (
                    "Near 2",
                    "<entity name=\"::stop-commands::x\"><attribute name=\"a&#10;##[add-mask]b\" optional=\"YES\" attributeType=\"Integer 16\"/></entity>"
                ),
            ], current: "Near 2")
        let out = modellint(["diff", "Near.xcdatamodeld"], in: directory)
        XCTAssertEqual(out.exitCode, 0, out.standardError)
        XCTAssertTrue(out.standardOutput.contains("\\u{3A}:stop-commands::x"), out.standardOutput)
        for line in out.standardOutput.split(separator: "\n") {
            XCTAssertNil(Self.runnerCommand(String(line)), String(line))
        }
    }
}

/// Writers replace only regular files, keep their permissions, keep symlinks.
final class OutputTargetTests: XCTestCase {
    private func fileType(_ path: String) -> mode_t {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode & S_IFMT : 0
    }

    func testADeviceNodeIsWrittenNeverReplaced() throws {
        let directory = try makeTemporaryDirectory(self)
        try writeBundle(in: directory, versions: [("Near 1", "<entity name=\"A\"/>")], current: "Near 1")
        let device = directory.appendingPathComponent("null").path
        // The same device as /dev/null (1, 3), made here so a failure cannot damage the machine's own.
        guard mknod(device, S_IFCHR | 0o666, dev_t((1 << 8) | 3)) == 0 else { throw XCTSkip("mknod needs root") }
        for option in ["--output", "--write-baseline"] {
            let out = modellint(["check", option, device], in: directory)
            XCTAssertEqual(out.exitCode, 0, out.standardError)
            XCTAssertEqual(fileType(device), S_IFCHR, "\(option) replaced the device with a regular file")
        }
    }

    func testAFIFOIsWrittenInPlace() throws {
        let directory = try makeTemporaryDirectory(self)
        try writeBundle(in: directory, versions: [("Near 1", "<entity name=\"A\"/>")], current: "Near 1")
        let fifo = directory.appendingPathComponent("report.fifo").path
        XCTAssertEqual(mkfifo(fifo, 0o644), 0)
        let received = Locked(Data())
        let reader = Thread {
            if let handle = FileHandle(forReadingAtPath: fifo) {
                let data = handle.readDataToEndOfFile()
                received.withLock { $0.append(data) }
            }
        }
        reader.start()
        let out = modellint(["check", "--output", fifo, "--format", "json"], in: directory)
        XCTAssertEqual(out.exitCode, 0, out.standardError)
        while !reader.isFinished { usleep(1_000) }
        XCTAssertTrue(String(decoding: received.withLock { $0 }, as: UTF8.self).contains("\"summary\""))
        XCTAssertEqual(fileType(fifo), S_IFIFO)
    }

    func testPermissionsAndSymlinksAreKept() throws {
        let directory = try makeTemporaryDirectory(self)
        try writeBundle(in: directory, versions: [("Near 1", "<entity name=\"A\"/>")], current: "Near 1")
        let report = directory.appendingPathComponent("report.json").path
        XCTAssertTrue(
            FileManager.default.createFile(
                atPath: report, contents: Data("old".utf8), attributes: [.posixPermissions: 0o600]))
        XCTAssertEqual(modellint(["check", "--output", "report.json", "--format", "json"], in: directory).exitCode, 0)
        XCTAssertEqual(
            (try FileManager.default.attributesOfItem(atPath: report)[.posixPermissions] as? NSNumber)?.intValue, 0o600)
        XCTAssertTrue(try String(contentsOfFile: report, encoding: .utf8).contains("\"summary\""))

        // A lock file that is a symlink (shared between checkouts, say) stays one, and its target is updated.
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("shared"), withIntermediateDirectories: true)
        let target = directory.appendingPathComponent("shared/modellint.lock").path
        XCTAssertEqual(modellint(["lock", "--lock", target], in: directory).exitCode, 0)
        try FileManager.default.createSymbolicLink(
            atPath: directory.appendingPathComponent("modellint.lock").path,
            withDestinationPath: "shared/modellint.lock")
        try writeBundle(
            in: directory, name: "Second", versions: [("Second 1", "<entity name=\"B\"/>")], current: "Second 1")
        XCTAssertEqual(modellint(["lock"], in: directory).exitCode, 0)
        XCTAssertEqual(fileType(directory.appendingPathComponent("modellint.lock").path), S_IFLNK)
        XCTAssertTrue(try String(contentsOfFile: target, encoding: .utf8).contains("Second.xcdatamodeld"))
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.contains(".modellint-") },
            [])
    }

    func testDevStdoutIsTheProcessStandardOutput() throws {
        let bin = shellQuoted(try builtExecutable().path)
        let near = shellQuoted(repositoryRoot.appendingPathComponent("Fixtures/Near.xcdatamodeld").path)
        let result = try shell("\(bin) check \(near) --output /dev/stdout --format json | head -c 1")
        XCTAssertEqual(result.out, "{")
        XCTAssertEqual(result.err, "")
    }
}
