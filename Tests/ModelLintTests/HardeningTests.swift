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

/// Issue 11, case 1: numeric defaults never trap, whatever their spelling.
final class NumericDefaultTests: XCTestCase {
    private func attribute(_ type: AttributeType, _ value: String) -> Attribute {
        var a = Attribute(name: "a", location: SourceLocation(file: "f"), type: type)
        a.defaultValueString = value
        return a
    }

    func testIntegerDefaultsBeyondInt64AreInvalidNotACrash() {
        for value in [
            "1e19", "9.3e18", "9223372036854775808.0", "-1e19", "1e300", "-9223372036854775809",
            "99999999999999999999999",
        ] {
            guard case .invalid = DefaultValueVerdict.judge(attribute(.integer64, value)) else {
                return XCTFail("\(value) on Integer 64 must be invalid")
            }
        }
        XCTAssertEqual(DefaultValueVerdict.judge(attribute(.integer64, "9223372036854775807")), .valid)
        XCTAssertEqual(DefaultValueVerdict.judge(attribute(.integer64, "-9223372036854775808")), .valid)
        XCTAssertEqual(
            DefaultValueVerdict.judge(attribute(.integer16, "2.0")),
            .suspicious("\"2.0\" is a fractional spelling on an Integer 16 attribute; write 2"))
        XCTAssertEqual(
            DefaultValueVerdict.judge(attribute(.double, "1e400")), .invalid("\"1e400\" is out of range for Double"))
        XCTAssertEqual(
            DefaultValueVerdict.judge(attribute(.float, "1e39")), .invalid("\"1e39\" is out of range for Float"))
        XCTAssertEqual(DefaultValueVerdict.judge(attribute(.double, "0x1p3")), .invalid("\"0x1p3\" is not a number"))
        XCTAssertEqual(DefaultValueVerdict.judge(attribute(.double, "nan")), .invalid("\"nan\" is not a number"))
    }

    /// The whole file through the linter: one such default is one finding, and every other bundle is still reported.
    func testOneOverflowingDefaultDoesNotStopTheRun() throws {
        let directory = try makeTemporaryDirectory(self)
        try writeBundle(
            in: directory, name: "Bad",
            versions: [
                (
                    "Bad 1",
                    "<entity name=\"T\">\n<attribute name=\"a\" attributeType=\"Integer 64\" defaultValueString=\"1e19\"/>\n</entity>"
                )
            ], current: "Bad 1")
        try writeBundle(
            in: directory, name: "Other",
            versions: [
                (
                    "Other 1",
                    "<entity name=\"U\">\n<attribute name=\"b\" attributeType=\"Integer 16\" defaultValueString=\"70000\"/>\n</entity>"
                )
            ], current: "Other 1")
        let out = modellint(["check", "--format", "json"], in: directory)
        XCTAssertEqual(out.exitCode, 1, out.standardError)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(out.standardOutput.utf8)) as? [String: Any])
        let messages = (json["diagnostics"] as? [[String: Any]] ?? []).map { "\($0["ruleId"]!) \($0["message"]!)" }
        XCTAssertEqual(
            messages,
            [
                "invalid-default-value T.a has an invalid default: \"1e19\" is not a whole number in range for Integer 64",
                "invalid-default-value U.b has an invalid default: \"70000\" is out of range for Integer 16 (-32768...32767)",
            ])
    }

    /// Random spellings per attribute type: no crash, and for integer types the verdict an independent
    /// decimal reading gives (digit strings compared as numbers; Foundation's Decimal for the rest).
    func testRandomNumericSpellingsPerType() {
        var random = SeededGenerator(seed: 0x5EED_0011)
        let pieces = [
            "", "+", "-", "0", "1", "9", "00", "123", "32767", "32768", "2147483648", "9223372036854775807",
            "9223372036854775808", ".", ".5", "5.", ".0", "e", "E", "e+", "e-", "e3", "e19", "E300", "x", "0x1F",
            "inf", "nan", "YES", "NO", " ", "1_000", "١", "½", "\u{0}", String(repeating: "9", count: 400),
        ]
        let integerTypes: [AttributeType] = [.integer16, .integer32, .integer64]
        for _ in 0..<6_000 {
            var value = ""
            for _ in 0..<Int.random(in: 1...5, using: &random) { value += pieces.randomElement(using: &random)! }
            for type in AttributeType.known {
                let verdict = DefaultValueVerdict.judge(attribute(type, value))
                guard let range = type.integerRange, integerTypes.contains(type) else { continue }
                XCTAssertEqual(kind(verdict), expectedIntegerVerdict(value, range), "\(type.xmlValue) \"\(value)\"")
            }
        }
    }

    private func kind(_ verdict: DefaultValueVerdict) -> String {
        switch verdict {
        case .valid: return "valid"
        case .suspicious: return "suspicious"
        case .invalid: return "invalid"
        }
    }

    private func expectedIntegerVerdict(_ value: String, _ range: ClosedRange<Int64>) -> String {
        let plainInteger = value.range(of: "^[+-]?[0-9]+$", options: .regularExpression) != nil
        if plainInteger {
            return Self.compareDecimalStrings(value, String(range.lowerBound)) >= 0
                && Self.compareDecimalStrings(value, String(range.upperBound)) <= 0 ? "valid" : "invalid"
        }
        if value == "YES" || value == "NO" { return "suspicious" }
        guard
            value.range(of: "^[+-]?([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][+-]?[0-9]+)?$", options: .regularExpression) != nil
        else { return "invalid" }
        // Foundation's Decimal holds 38 digits and exponents of about ±127: outside that it is no oracle.
        let exponent = value.split(whereSeparator: { $0 == "e" || $0 == "E" }).dropFirst().first.map(String.init) ?? "0"
        guard value.count <= 36, let e = Int(exponent), e.magnitude < 90,
            let decimal = Decimal(string: value, locale: Locale(identifier: "en_US_POSIX")), !decimal.isNaN
        else { return kind(Self.judge(value, range)) }
        var rounded = decimal
        var source = decimal
        NSDecimalRound(&rounded, &source, 0, .plain)
        guard rounded == decimal, decimal >= Decimal(range.lowerBound), decimal <= Decimal(range.upperBound) else {
            return "invalid"
        }
        return "suspicious"
    }

    private static func judge(_ value: String, _ range: ClosedRange<Int64>) -> DefaultValueVerdict {
        let type: AttributeType =
            range == Int64(Int16.min)...Int64(Int16.max)
            ? .integer16 : range == Int64(Int32.min)...Int64(Int32.max) ? .integer32 : .integer64
        var a = Attribute(name: "a", location: SourceLocation(file: "f"), type: type)
        a.defaultValueString = value
        return DefaultValueVerdict.judge(a)
    }

    /// -1, 0, 1 for two integer spellings (optional sign, digits), compared as numbers.
    static func compareDecimalStrings(_ a: String, _ b: String) -> Int {
        func split(_ s: String) -> (Bool, String) {
            var s = Substring(s)
            var negative = false
            if s.first == "+" || s.first == "-" {
                negative = s.first == "-"
                s = s.dropFirst()
            }
            let digits = String(s.drop { $0 == "0" })
            return (negative && !digits.isEmpty, digits)
        }
        let (na, da) = split(a)
        let (nb, db) = split(b)
        if na != nb { return na ? -1 : 1 }
        let magnitude = da.count != db.count ? (da.count < db.count ? -1 : 1) : (da == db ? 0 : (da < db ? -1 : 1))
        return na ? -magnitude : magnitude
    }
}

/// Issue 11, cases 2 and 7: `new-version` never traps, never writes an unparseable pointer, and leaves no half-done
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

/// Issue 11, case 3: a report that cannot be written is a clear error (exit 3), never a trap; a reader that
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
        // The corpus report is far larger than a pipe's buffer: the writer meets the closed pipe for certain.
        let big = corpusRoot.map { shellQuoted($0.path) } ?? fixtures
        let piped = try shell(
            "\(bin) check \(big) --format json 2>/tmp/modellint-pipe-err | head -c 10 > /dev/null; echo $? $(cat /tmp/modellint-pipe-err | wc -c)"
        )
        XCTAssertEqual(piped.out, "0 0\n", "head succeeds and modellint says nothing")
        // Its own exit code, not a signal's (141) or a trap's (132).
        let status = try shell(
            "bash -c \(shellQuoted("\(bin) check \(fixtures) --format json | head -c 10 > /dev/null; echo ${PIPESTATUS[0]}"))"
        )
        XCTAssertEqual(status.out, "1\n")
    }
}

/// Issue 11, case 4: a megabyte name in 300 findings must not make a report of hundreds of megabytes.
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
            first["message"] as? String, "\(shortened).a0 has attributeType \"Int64\", which is not a Core Data type")
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

/// Issue 11, case 5: names from model files cannot write lines of their own into a report or a CI log, and
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

/// Issue 11, case 6: writers replace only regular files, keep their permissions, keep symlinks.
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

/// Issue 11, case 8: the lock file under concurrency, with a wrong shape, with keys spelled another way.
final class LockFileHardeningTests: XCTestCase {
    func testTenConcurrentLockRunsKeepEveryRecord() throws {
        let directory = try makeTemporaryDirectory(self)
        for i in 0..<10 {
            try writeBundle(
                in: directory, name: "B\(i)", versions: [("B\(i) 1", "<entity name=\"A\"/>")], current: "B\(i) 1")
        }
        let codes = Locked([Int32](repeating: -1, count: 10))
        DispatchQueue.concurrentPerform(iterations: 10) { i in
            let code = modellint(["lock", "B\(i).xcdatamodeld"], in: directory).exitCode
            codes.withLock { $0[i] = code }
        }
        XCTAssertEqual(codes.withLock { $0 }, Array(repeating: 0, count: 10))
        let lock = try LockFile.load(path: directory.appendingPathComponent("modellint.lock").path)
        XCTAssertEqual(lock.bundles.keys.map(\.string).sorted(), (0..<10).map { "B\($0).xcdatamodeld" })
    }

    func testAWrongShapeIsAConfigurationError() throws {
        let directory = try makeTemporaryDirectory(self)
        try writeBundle(in: directory, versions: [("Near 1", "<entity name=\"A\"/>")], current: "Near 1")
        for (text, expected) in [
            ("{ \"format\": 1 }", "bundles: missing"),
            (
                "{ \"format\": 1, \"bundles\": \"Near.xcdatamodeld\" }",
                "bundles: must be an object keyed by bundle path"
            ),
            ("{ \"format\": 1, \"bundles\": [] }", "bundles: must be an object keyed by bundle path"),
            (
                "{ \"format\": 1, \"bundles\": { \"Near.xcdatamodeld\": { \"versions\": {} }, \"./Near.xcdatamodeld\": { \"versions\": {} } } }",
                "a second entry for the bundle Near.xcdatamodeld"
            ),
            ("{ \"format\": 1, \"format\": 1, \"bundles\": {} }", "the key \"format\" appears twice"),
        ] {
            try Data(text.utf8).write(to: directory.appendingPathComponent("modellint.lock"))
            let out = modellint(["check"], in: directory)
            XCTAssertEqual(out.exitCode, 2, text)
            XCTAssertTrue(out.standardError.contains(expected), "\(text): \(out.standardError)")
        }
    }

    func testKeysAreNormalisedAndOrphansReported() throws {
        let directory = try makeTemporaryDirectory(self)
        try writeBundle(
            in: directory, versions: [("Near 1", "<entity name=\"A\"/>"), ("Near 2", "<entity name=\"A\"/>")],
            current: "Near 2")
        XCTAssertEqual(modellint(["lock"], in: directory).exitCode, 0)
        let path = directory.appendingPathComponent("modellint.lock")
        // Respelled by hand (./ and a trailing slash), and an entry for a bundle that moved away.
        var text = try String(contentsOf: path, encoding: .utf8).replacingOccurrences(
            of: "\"Near.xcdatamodeld\"", with: "\"./Near.xcdatamodeld/\"")
        text = text.replacingOccurrences(
            of: "\"bundles\": {", with: "\"bundles\": {\n    \"Old/Moved.xcdatamodeld\": { \"versions\": {} },")
        try Data(text.utf8).write(to: path)
        // The respelled entry still protects Near: editing a locked version is found.
        try Data((RuleExample.modelHeader + "\n<entity name=\"B\"/>\n</model>\n").utf8).write(
            to: directory.appendingPathComponent("Near.xcdatamodeld/Near 1.xcdatamodel/contents"))
        let out = modellint(["check", "--format", "json"], in: directory)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(out.standardOutput.utf8)) as? [String: Any])
        let found = (json["diagnostics"] as? [[String: Any]] ?? []).map {
            "\($0["ruleId"]!) \($0["file"]!):\($0["line"] ?? "-")"
        }
        XCTAssertTrue(
            found.contains("shipped-version-edited Near.xcdatamodeld/Near 1.xcdatamodel/contents:2"), "\(found)")
        XCTAssertTrue(found.contains("lock-entry-orphaned modellint.lock:5"), "\(found)")
        let orphan = try XCTUnwrap(
            (json["diagnostics"] as? [[String: Any]])?.first { $0["ruleId"] as? String == "lock-entry-orphaned" })
        XCTAssertEqual(
            orphan["message"] as? String,
            "modellint.lock records Old/Moved.xcdatamodeld (0 versions), which is not a bundle on disk: those versions are protected by nothing; was the bundle moved or renamed?"
        )
        XCTAssertEqual(orphan["severity"] as? String, "warning")
    }

    func testForceRepairsACorruptLockFile() throws {
        let directory = try makeTemporaryDirectory(self)
        try writeBundle(in: directory, versions: [("Near 1", "<entity name=\"A\"/>")], current: "Near 1")
        try Data("{ \"format\": 1, \"bundles\": { broken".utf8).write(
            to: directory.appendingPathComponent("modellint.lock"))
        let plain = modellint(["lock"], in: directory)
        XCTAssertEqual(plain.exitCode, 2)
        XCTAssertTrue(plain.standardError.contains("repair it with modellint lock --force"), plain.standardError)
        let forced = modellint(["lock", "--force"], in: directory)
        XCTAssertEqual(forced.exitCode, 0, forced.standardError)
        XCTAssertTrue(
            forced.standardOutput.hasPrefix("  repaired: modellint.lock could not be read (not valid JSON: "),
            forced.standardOutput)
        XCTAssertEqual(
            try LockFile.load(path: directory.appendingPathComponent("modellint.lock").path).bundles[
                ExactName("Near.xcdatamodeld")]?.keys.map(\.string).sorted(), ["Near 1"])
    }
}

/// Issue 11, cases 13-15: git cannot be pointed at another history, pathspec magic, or another executable.
final class GitHardeningTests: XCTestCase {
    /// A repository whose `App/Near.xcdatamodeld` was released as v1, then had a shipped version edited.
    private func editedRelease(folder: String = "App") throws -> URL {
        let directory = try makeTemporaryDirectory(self)
        try git(["init", "-q", "-b", "main"], in: directory)
        let app = directory.appendingPathComponent(folder)
        try FileManager.default.createDirectory(at: app, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: repositoryRoot.appendingPathComponent("Fixtures/Near.xcdatamodeld"),
            to: app.appendingPathComponent("Near.xcdatamodeld"))
        try git(["add", "-A"], in: directory)
        try git(["commit", "-q", "-m", "release"], in: directory)
        try git(["tag", "v1"], in: directory)
        let contents = app.appendingPathComponent("Near.xcdatamodeld/Near 19.xcdatamodel/contents")
        try Data(
            try String(contentsOf: contents, encoding: .utf8).replacingOccurrences(
                of: "name=\"latitude\"", with: "name=\"lat\""
            ).utf8
        ).write(to: contents)
        return directory
    }

    private func ruleIds(_ out: CommandOutput) throws -> [String] {
        let json = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(out.standardOutput.utf8)) as? [String: Any], out.standardError)
        return (json["diagnostics"] as? [[String: Any]] ?? []).compactMap { $0["ruleId"] as? String }
    }

    func testAGitDirectoryPlantedBesideTheBundleIsNeverUsed() throws {
        let directory = try editedRelease()
        // The attacker's history, where v1 already has the edit, planted as HEAD, config, objects and refs in App/.
        let fake = try makeTemporaryDirectory(self)
        try git(["init", "-q"], in: fake)
        try FileManager.default.copyItem(
            at: directory.appendingPathComponent("App/Near.xcdatamodeld"),
            to: fake.appendingPathComponent("Near.xcdatamodeld"))
        try git(["add", "-A"], in: fake)
        try git(["commit", "-q", "-m", "evil"], in: fake)
        try git(["tag", "v1"], in: fake)
        for item in ["HEAD", "objects", "refs"] {
            try FileManager.default.copyItem(
                at: fake.appendingPathComponent(".git/\(item)"), to: directory.appendingPathComponent("App/\(item)"))
        }
        try Data("[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tworktree = .\n".utf8).write(
            to: directory.appendingPathComponent("App/config"))
        let out = modellint(["check", "App", "--released", "v1", "--format", "json"], in: directory)
        XCTAssertEqual(out.exitCode, 1, out.standardError)
        XCTAssertTrue(try ruleIds(out).contains("shipped-version-edited"))
        // Run from inside the planted folder, git's discovery meets it first: refused, never used.
        let inside = modellint(["check", ".", "--released", "v1"], in: directory.appendingPathComponent("App"))
        XCTAssertEqual(inside.exitCode, 2)
        XCTAssertTrue(inside.standardError.contains("git found a bare repository"), inside.standardError)
    }

    func testFoldersNamedLikePathspecMagicAreLiteral() throws {
        for folder in [":(top)x", ":!x", "*"] {
            let directory = try editedRelease(folder: folder)
            let out = modellint(["check", "./" + folder, "--released", "v1", "--format", "json"], in: directory)
            XCTAssertEqual(out.exitCode, 1, "\(folder): \(out.standardError)")
            XCTAssertTrue(try ruleIds(out).contains("shipped-version-edited"), folder)
        }
    }

    func testACommittedFileNamedGitNeverRuns() throws {
        let directory = try editedRelease()
        let marker = directory.appendingPathComponent("pwned")
        let fake = directory.appendingPathComponent("git")
        try Data("#!/bin/sh\ntouch \(shellQuoted(marker.path))\nexit 1\n".utf8).write(to: fake)
        XCTAssertEqual(chmod(fake.path, 0o755), 0)
        let bin = shellQuoted(try builtExecutable().path)
        // An empty entry and a relative one, both meaning the current folder, ahead of the real git.
        let result = try shell("PATH=\":.:$PATH\" \(bin) check App --released v1 > /dev/null", in: directory)
        XCTAssertEqual(result.code, 1, result.err)
        XCTAssertFalse(FileManager.default.fileExists(atPath: marker.path), "the repository's own git ran")
    }
}

/// Issue 11, cases 9, 10 and 12: special files, symlinks out of the tree, hostile globs, huge files.
final class FileSystemHardeningTests: XCTestCase {
    /// Every kind of file modellint reads, made a FIFO or a link to /dev/zero: each run ends at once (a timeout
    /// guards the test) with a message naming the file, never a wait or a spin.
    func testSpecialFilesAreRefusedWhereverTheyAreRead() throws {
        let bin = shellQuoted(try builtExecutable().path)
        let cases: [(place: String, command: String, expected: String)] = [
            ("Near.xcdatamodeld/Near 1.xcdatamodel/contents", "check", "it is a FIFO, not a regular file"),
            ("Near.xcdatamodeld/.xccurrentversion", "check", "it is a FIFO, not a regular file"),
            ("Maps/A.xcmappingmodel/xcmapping.xml", "check", ""),
            (".modellint.json", "check", "it is a FIFO, not a regular file"),
            ("modellint.lock", "check", "it is a FIFO, not a regular file"),
            ("base.json", "check --baseline base.json", "it is a FIFO, not a regular file"),
        ]
        for special in ["fifo", "zero"] {
            for item in cases {
                let directory = try makeTemporaryDirectory(self)
                try writeBundle(in: directory, versions: [("Near 1", "<entity name=\"A\"/>")], current: "Near 1")
                let path = directory.appendingPathComponent(item.place)
                try FileManager.default.createDirectory(
                    at: path.deletingLastPathComponent(), withIntermediateDirectories: true)
                try? FileManager.default.removeItem(at: path)
                if special == "fifo" {
                    XCTAssertEqual(mkfifo(path.path, 0o644), 0)
                } else {
                    try FileManager.default.createSymbolicLink(atPath: path.path, withDestinationPath: "/dev/zero")
                }
                let result = try shell(
                    "timeout 20 \(bin) \(item.command) > out.txt 2>&1; echo $?; cat out.txt", in: directory)
                let code = Int(result.out.split(separator: "\n").first ?? "") ?? -1
                XCTAssertTrue([0, 1, 2].contains(code), "\(special) \(item.place): exit \(code): \(result.out)")
                var expected =
                    special == "fifo"
                    ? item.expected : item.expected.replacingOccurrences(of: "a FIFO", with: "a character device")
                // A model's contents symlinked out of its bundle is refused before its kind is looked at.
                if special == "zero" && item.place.hasSuffix("/contents") {
                    expected = "it resolves to /dev/zero, outside "
                }
                // A mapping model that cannot be read is no mapping model: nothing to say, and nothing waited for.
                if !expected.isEmpty {
                    XCTAssertTrue(result.out.contains(expected), "\(special) \(item.place): \(result.out)")
                }
            }
        }
    }

    func testASymlinkToTheRootIsNotWalked() throws {
        let directory = try makeTemporaryDirectory(self)
        try writeBundle(in: directory, versions: [("Near 1", "<entity name=\"A\"/>")], current: "Near 1")
        try FileManager.default.createSymbolicLink(
            atPath: directory.appendingPathComponent("x").path, withDestinationPath: "/")
        // A link inside the tree is followed, once.
        try writeBundle(
            in: directory.appendingPathComponent("Real"), name: "Other",
            versions: [("Other 1", "<entity name=\"B\"/>")], current: "Other 1")
        try FileManager.default.createSymbolicLink(
            atPath: directory.appendingPathComponent("Alias").path, withDestinationPath: "Real")
        let walker = DirectoryWalker()
        let found = try BundleFinder(workingDirectory: directory.path, walker: walker).bundles(for: ["."])
        XCTAssertEqual(found.map(\.displayPath), ["Near.xcdatamodeld", "Alias/Other.xcdatamodeld"])
        XCTAssertLessThan(walker.foldersListed, 10)
        let out = modellint(["check"], in: directory)
        XCTAssertEqual(out.standardOutput, "0 errors, 0 warnings, 0 notes in 2 bundles (2 versions)\n")
    }

    func testMappingModelFoldersOutsideTheProjectAreRefused() throws {
        let directory = try makeTemporaryDirectory(self)
        try writeBundle(in: directory, versions: [("Near 1", "<entity name=\"A\"/>")], current: "Near 1")
        try Data("{ \"mappingModels\": [\"/\"] }".utf8).write(to: directory.appendingPathComponent(".modellint.json"))
        let out = modellint(["check"], in: directory)
        XCTAssertEqual(out.exitCode, 2)
        XCTAssertTrue(
            out.standardError.contains("mappingModels[0]: / is outside the folder holding the configuration"),
            out.standardError)
    }

    /// Two bundles in one tree: the tree is listed once for mapping models, not once per bundle.
    func testEachTreeIsSearchedOncePerRun() throws {
        let directory = try makeTemporaryDirectory(self)
        for name in ["A", "B"] {
            try writeBundle(
                in: directory.appendingPathComponent("Models"), name: name,
                versions: [("\(name) 1", "<entity name=\"E\"/>")], current: "\(name) 1")
        }
        for i in 0..<50 {
            try FileManager.default.createDirectory(
                at: directory.appendingPathComponent("Sources/Dir\(i)"), withIntermediateDirectories: true)
        }
        try Data().write(to: directory.appendingPathComponent("Package.swift"))
        let walker = DirectoryWalker()
        let files = RepositoryFiles(walker: walker)
        _ = files.files(near: directory.appendingPathComponent("Models/A.xcdatamodeld").path)
        let once = walker.foldersListed
        _ = files.files(near: directory.appendingPathComponent("Models/B.xcdatamodeld").path)
        XCTAssertEqual(walker.foldersListed, once)
        XCTAssertGreaterThan(once, 50)
    }

    func testGlobsAreLinearAndMatchAsBefore() {
        let hostile = String(repeating: "**a", count: 30) + "b"
        XCTAssertFalse(Glob.matches(pattern: hostile, path: String(repeating: "a", count: 200)))
        XCTAssertTrue(Glob.matches(pattern: hostile, path: String(repeating: "a", count: 30) + "b"))
        // The same answers as the backtracking matcher it replaced, on random patterns and paths.
        var random = SeededGenerator(seed: 42)
        let alphabet: [Character] = ["a", "b", "/", "*", "?"]
        for _ in 0..<20_000 {
            let pattern = String(
                (0..<Int.random(in: 0...8, using: &random)).map { _ in alphabet.randomElement(using: &random)! })
            let path = String(
                (0..<Int.random(in: 0...8, using: &random)).map { _ in
                    ["a", "b", "/"].randomElement(using: &random)! as Character
                })
            XCTAssertEqual(
                Glob.matches(pattern: pattern, path: path), Self.backtracking(pattern, path), "\(pattern) vs \(path)")
        }
    }

    /// The matcher before, kept as the oracle: same semantics, exponential on hostile input.
    static func backtracking(_ pattern: String, _ path: String) -> Bool {
        let p = Array(pattern)
        let s = Array(path)
        var memo: [Int: Bool] = [:]
        func match(_ i: Int, _ j: Int) -> Bool {
            let key = i * (s.count + 1) + j
            if let cached = memo[key] { return cached }
            let result: Bool
            if i == p.count {
                result = j == s.count || s[j] == "/"
            } else if p[i] == "*" && i + 1 < p.count && p[i + 1] == "*" {
                var next = i + 2
                if next < p.count && p[next] == "/" { next += 1 }
                result = (j...s.count).contains { match(next, $0) }
            } else if p[i] == "*" {
                var k = j
                var found = match(i + 1, k)
                while !found && k < s.count && s[k] != "/" {
                    k += 1
                    found = match(i + 1, k)
                }
                result = found
            } else if j < s.count && (p[i] == "?" ? s[j] != "/" : p[i] == s[j]) {
                result = match(i + 1, j + 1)
            } else {
                result = false
            }
            memo[key] = result
            return result
        }
        return match(0, 0)
    }

    func testAContentsFileOverTheCapIsAFindingNamingItsSize() throws {
        let directory = try makeTemporaryDirectory(self)
        let bundle = try writeBundle(in: directory, versions: [("Near 1", "<entity name=\"A\"/>")], current: "Near 1")
        let contents = bundle.appendingPathComponent("Near 1.xcdatamodel/contents")
        // A sparse file: 65 MB on paper, nothing on disk, and never read.
        XCTAssertEqual(truncate(contents.path, off_t(65 << 20)), 0)
        let found = lint(bundle)
        XCTAssertEqual(found.map(\.ruleId), ["malformed-contents"])
        XCTAssertEqual(
            found.first?.message,
            "Near 1 cannot be read as a Core Data model: it is 65 MB, over modellint's limit of 64 MB for this kind of file. The version is skipped, and so is every comparison with it"
        )
    }
}

/// Issue 11, case 17, and the JSON reader behind every configuration, lock and baseline file.
final class JSONReaderTests: XCTestCase {
    func testDuplicateKeysAreAConfigurationErrorNamingTheKey() throws {
        let directory = try makeTemporaryDirectory(self)
        try writeBundle(in: directory, versions: [("Near 1", "<entity name=\"A\"/>")], current: "Near 1")
        try Data(
            "{\n  \"rules\": {\n    \"missing-inverse\": \"off\",\n    \"missing-inverse\": \"error\"\n  }\n}\n".utf8
        ).write(to: directory.appendingPathComponent(".modellint.json"))
        let out = modellint(["check"], in: directory)
        XCTAssertEqual(out.exitCode, 2)
        XCTAssertTrue(
            out.standardError.hasSuffix(
                ".modellint.json: not valid JSON: the key \"missing-inverse\" appears twice in one object (rules.missing-inverse) at line 4, column 5\n"
            ), out.standardError)
    }

    func testKeysDifferingOnlyInNormalizationAreTwoKeys() throws {
        // "é" precomposed and decomposed: canonically equal Strings, different bytes, so two keys to a JSON reader.
        let value = try JSONValue.parse(Data("{ \"caf\u{E9}\": 1, \"cafe\u{301}\": 2 }".utf8))
        XCTAssertEqual(value.objectValue?.count, 2)
    }

    func testSyntaxErrorsSayWhere() {
        for (text, expected) in [
            ("{\n  \"a\": 1,\n  \"b\" 2\n}", "':' is expected after the key \"b\" at line 3, column 7"),
            ("{ \"a\": [1, 2 }", "',' or ']' is expected at line 1, column 14"),
            ("{ \"a\": tru }", "an unknown word at line 1, column 8"),
            ("{ \"a\": \"x\n\" }", "a line break inside a string at line 1, column 10"),
            ("", "the file holds no value at line 1, column 1"),
        ] {
            XCTAssertThrowsError(try JSONValue.parse(Data(text.utf8))) { error in
                XCTAssertTrue("\(error)".hasSuffix(expected), "\(text.debugDescription): \(error)")
            }
        }
    }

    func testJSON5AndStrictJSON() throws {
        let json5 = "{ // comment\n unquoted: 'single', hex: 0x1F, half: .5, plus: +1, list: [1, 2,], /* block */ }"
        let value = try JSONValue.parse(Data(json5.utf8))
        XCTAssertEqual(value["unquoted"], .string("single"))
        XCTAssertEqual(value["hex"], .number(31))
        XCTAssertEqual(value["half"], .number(0.5))
        XCTAssertEqual(value["plus"], .number(1))
        XCTAssertEqual(value["list"], .array([.number(1), .number(2)]))
        XCTAssertEqual(value.objectValue?.map(\.0), ["unquoted", "hex", "half", "plus", "list"], "file order")
        XCTAssertThrowsError(try JSONValue.parse(Data("{ \"a\": 1, }".utf8), json5: false))
        XCTAssertThrowsError(try JSONValue.parse(Data("{ \"a\": 01 }".utf8), json5: false))
        XCTAssertEqual(try JSONValue.parse(Data("\"\\ud83d\\ude00\"".utf8)), .string("😀"))
        XCTAssertThrowsError(try JSONValue.parse(Data("\"\\ud83d\"".utf8)))
    }
}

/// Issue 11, case 11: deep inheritance is linear, and every fast path gives what the plain walk gives.
final class DeepHierarchyTests: XCTestCase {
    /// A chain E0 <- E1 <- ... of `depth` entities, each declaring one attribute; `extra` adds text to entity k.
    static func chain(_ depth: Int, edit: (Int) -> String = { _ in "" }) -> String {
        (0..<depth).map { i in
            "<entity name=\"E\(i)\"\(i > 0 ? " parentEntity=\"E\(i - 1)\"" : "")><attribute name=\"a\(i)\" optional=\"YES\" attributeType=\"String\"/>\(edit(i))</entity>"
        }.joined(separator: "\n")
    }

    private func model(_ body: String) throws -> Model {
        guard
            case .model(let m) = ContentsParser.parse(
                data: Data((RuleExample.modelHeader + "\n" + body + "\n</model>\n").utf8), path: "m")
        else {
            throw XCTSkip("not a model")
        }
        return m
    }

    func testDuplicatesDeepInAChainAreFoundExactly() throws {
        // E2500 redeclares a7 (inherited) and E2999 repeats the identifier of a5 under another name.
        let m = try model(
            Self.chain(3_000) { i in
                i == 2_500
                    ? "<attribute name=\"a7\" optional=\"YES\" attributeType=\"String\"/>"
                    : i == 2_999
                        ? "<attribute name=\"b\" optional=\"YES\" attributeType=\"String\" elementID=\"a5\"/>" : ""
            })
        let names = DuplicateNameRule().check(m, context: RuleContext()).map(\.message)
        XCTAssertEqual(names, ["E2500.a7 is declared more than once (inherited from E7)"])
        let ids = DuplicateRenamingIDRule().check(m, context: RuleContext()).map(\.message)
        XCTAssertEqual(
            ids,
            ["E2999.a5 and E2999.b share the renaming identifier \"a5\": inference fails and the store does not open"])
    }

    /// The table worked out once per version and the per-entity walk agree, on every fixture and corpus version
    /// and on deep models (with cycles and repeated names too).
    func testDeclarationTablesAgreeWithTheWalk() throws {
        var models = fixtureAndCorpusBundles().flatMap {
            BundleLoader.load(bundleURL: $0, displayPath: "b").versions.compactMap(\.model)
        }
        models.append(
            try model(
                Self.chain(200) { i in
                    i % 7 == 0 ? "<attribute name=\"a\(i / 2)\" optional=\"YES\" attributeType=\"String\"/>" : ""
                }))
        models.append(
            try model(
                Self.chain(60)
                    + "\n<entity name=\"C1\" parentEntity=\"C2\"><attribute name=\"x\" attributeType=\"String\"/></entity><entity name=\"C2\" parentEntity=\"C1\"><attribute name=\"x\" attributeType=\"String\"/></entity><entity name=\"D\" parentEntity=\"C1\"><attribute name=\"x\" attributeType=\"String\"/></entity>"
            ))
        var compared = 0
        for m in models {
            for key in [Model.DeclarationKey.name, .persistentRenamingID, .renamingID] {
                let table = m.hierarchy.earlierDeclarations(in: m.entities) { key($0) }
                for i in m.entities.indices {
                    let walked = Self.walk(m, i, key)
                    let fromTable = table[i].enumerated().compactMap { p, f in
                        f.map { "\(p):\(m.entities[$0.owner].name).\($0.property.name)" }
                    }
                    XCTAssertEqual(fromTable, walked, "\(m.entities[i].name) \(key)")
                    compared += 1
                }
            }
        }
        // The 200-level chain alone gives 600 comparisons; the corpus adds over a thousand when present.
        XCTAssertGreaterThan(compared, corpusRoot == nil ? 600 : 1_600)
    }

    /// The definition: the entity's effective properties, walked.
    static func walk(_ m: Model, _ i: Int, _ key: Model.DeclarationKey) -> [String] {
        let entity = m.entities[i]
        var seen: [String: String] = [:]
        var found: [String] = []
        let effective = m.effectiveProperties(of: entity)
        let own = effective.count - entity.properties.count
        for (n, (property, owner)) in effective.enumerated() {
            guard let k = key(property) else { continue }
            if let first = seen[k] {
                if n >= own { found.append("\(n - own):\(first)") }
            } else {
                seen[k] = "\(owner).\(property.name)"
            }
        }
        return found
    }

    /// Deep pairs are matched together per version, short ones pair by pair: the same pairs either way.
    func testBatchedMatchingAgreesWithTheWalkOnEveryPair() throws {
        var versionPairs: [(Model, Model)] = []
        for bundle in fixtureAndCorpusBundles() {
            let models = BundleLoader.load(bundleURL: bundle, displayPath: "b").versions.compactMap(\.model)
            versionPairs += zip(models, models.dropFirst()).map { ($0, $1) }
            if let last = models.last { versionPairs += models.dropLast().map { ($0, last) } }
        }
        // Deep: a change at the root, a property moved down the chain, a rename through elementID, a kind change.
        let base = try model(Self.chain(80))
        let changed = try model(
            Self.chain(80) { i in
                switch i {
                case 0: return "<attribute name=\"z\" optional=\"YES\" attributeType=\"String\"/>"
                case 40:
                    return
                        "<attribute name=\"a3\" optional=\"YES\" attributeType=\"String\"/><attribute name=\"renamed\" optional=\"YES\" attributeType=\"String\" elementID=\"a41\"/>"
                case 60:
                    return
                        "<relationship name=\"a70\" optional=\"YES\" maxCount=\"1\" deletionRule=\"Nullify\" destinationEntity=\"E0\"/>"
                default: return ""
                }
            })
        versionPairs += [(base, changed), (changed, base)]
        var compared = 0
        for (old, new) in versionPairs {
            var pending: [(i: Int, j: Int)] = []
            var used = Set<Int>()
            for j in new.entities.indices {
                if let i = old.entityIndexByRenamingID[new.entities[j].renamingIdentifier], used.insert(i).inserted {
                    pending.append((i, j))
                }
            }
            let batched = ModelDiff.pairs(pending, old: old, new: new)
            for ((i, j), pair) in zip(pending, batched) {
                XCTAssertEqual(
                    Self.describe(pair), Self.describe(ModelDiff.pairWalkingChains(i, j, old: old, new: new)),
                    "\(new.entities[j].name)")
                compared += 1
            }
        }
        // The two 80-level deep pairs alone give 160; the corpus adds several hundred when present.
        XCTAssertGreaterThan(compared, corpusRoot == nil ? 160 : 500)
    }

    static func describe(_ pair: EntityPair) -> String {
        func p(_ x: Property) -> String { "\(x.kindName) \(x.name)@\(x.location.line ?? 0)" }
        func pp(_ list: [PropertyPair]) -> String {
            list.map { "\(p($0.old))>\(p($0.new)) \($0.oldOwner) \($0.facets)" }.joined(separator: ";")
        }
        return
            "m[\(pp(pair.matchedProperties))] +\(pair.addedProperties.map(p)) -\(Set(pair.removedProperties.map(p)).sorted()) t[\(pp(pair.becameTransient))] k[\(pp(pair.kindChanged))] \(pair.facets)"
    }

    /// A change at the root of a 10,000-level chain: every lineage differs, and the run stays a single pass (the
    /// timings are in Benchmarks/bench-hostile).
    func testAChangedRootOfAVeryDeepChain() throws {
        let directory = try makeTemporaryDirectory(self)
        try writeBundle(
            in: directory,
            versions: [
                ("Near 1", Self.chain(5_000)),
                ("Near 2", Self.chain(5_000) { $0 == 0 ? "<attribute name=\"z\" attributeType=\"String\"/>" : "" }),
            ], current: "Near 2")
        let found = lint(directory.appendingPathComponent("Near.xcdatamodeld"))
        XCTAssertEqual(found.map(\.ruleId), ["required-attribute-without-default"])
    }
}

/// Issue 11, case 16: names are compared by their bytes.
final class ExactNameTests: XCTestCase {
    private let nfc = "Caf\u{E9} 2", nfd = "Cafe\u{301} 2"

    func testVersionsDifferingOnlyInNormalizationAreTwoAndThePointerResolvesByBytes() throws {
        XCTAssertEqual(nfc, nfd, "Swift calls them equal: the reason for ExactName")
        let directory = try makeTemporaryDirectory(self)
        let bundle = try writeBundle(
            in: directory, versions: [(nfc, "<entity name=\"A\"/>"), (nfd, "<entity name=\"B\"/>")], current: nfd)
        let loaded = BundleLoader.load(bundleURL: bundle, displayPath: "Near.xcdatamodeld")
        XCTAssertEqual(loaded.versions.count, 2)
        XCTAssertTrue(try XCTUnwrap(loaded.currentVersion).name.isExactly(nfd))
        XCTAssertEqual(loaded.currentVersion?.model?.entities.map(\.name), ["B"])
        let found = lint(bundle).filter { $0.ruleId == "version-name-ambiguous" }
        XCTAssertEqual(found.count, 1)
        XCTAssertTrue(
            found.first?.message.hasSuffix(
                "differ only by letter case or Unicode normalization: a disk that does not tell them apart (macOS by default) keeps one of them"
            ) == true)
        // The lock file keeps both.
        XCTAssertEqual(modellint(["lock"], in: directory).exitCode, 0)
        let lock = try LockFile.load(path: directory.appendingPathComponent("modellint.lock").path)
        XCTAssertEqual(lock.bundles[ExactName("Near.xcdatamodeld")]?.count, 2)
    }

    func testBundlesDifferingOnlyInNormalizationAreBothLinted() throws {
        let directory = try makeTemporaryDirectory(self)
        try writeBundle(in: directory, name: "Caf\u{E9}", versions: [("V 1", "<entity name=\"A\"/>")], current: "V 1")
        try writeBundle(in: directory, name: "Cafe\u{301}", versions: [("V 1", "<entity name=\"A\"/>")], current: "V 1")
        XCTAssertEqual(
            modellint(["check"], in: directory).standardOutput,
            "0 errors, 0 warnings, 0 notes in 2 bundles (2 versions)\n")
    }

    func testAVersionFolderNameThatIsNotUTF8IsReported() throws {
        let directory = try makeTemporaryDirectory(self)
        let bundle = try writeBundle(in: directory, versions: [("Near 1", "<entity name=\"A\"/>")], current: "Near 1")
        let bad = bundle.path + "/Near \u{FF}.xcdatamodel"
        // The name as bytes: "Near ", 0xFF, ".xcdatamodel".
        var bytes = Array(bundle.path.utf8) + Array("/Near ".utf8) + [0xFF] + Array(".xcdatamodel".utf8) + [0]
        XCTAssertEqual(
            bytes.withUnsafeMutableBufferPointer {
                $0.withMemoryRebound(to: CChar.self) { mkdir($0.baseAddress!, 0o755) }
            }, 0, bad)
        let found = lint(bundle).filter { $0.ruleId == "version-name-ambiguous" }
        XCTAssertEqual(
            found.map(\.message),
            [
                "the version folder Near \\xFF.xcdatamodel in Near.xcdatamodeld has a name that is not valid UTF-8: it is not read, and no comparison includes it"
            ])
    }
}
