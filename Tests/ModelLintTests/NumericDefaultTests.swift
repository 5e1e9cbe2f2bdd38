import Foundation
import Testing
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

/// Numeric defaults never trap, whatever their spelling.
@Suite struct NumericDefaultTests {
    let temporary = TemporaryDirectories()

    private func attribute(_ type: AttributeType, _ value: String) -> Attribute {
        var a = Attribute(name: "a", location: ModelLintModel.SourceLocation(file: "f"), type: type)
        a.defaultValueString = value
        return a
    }

    @Test func testIntegerDefaultsBeyondInt64AreInvalidNotACrash() {
        for value in [
            "1e19", "9.3e18", "9223372036854775808.0", "-1e19", "1e300", "-9223372036854775809",
            "99999999999999999999999",
        ] {
            guard case .invalid = DefaultValueVerdict.judge(attribute(.integer64, value)) else {
                Issue.record("\(value) on Integer 64 must be invalid")
                return
            }
        }
        #expect(DefaultValueVerdict.judge(attribute(.integer64, "9223372036854775807")) == .valid)
        #expect(DefaultValueVerdict.judge(attribute(.integer64, "-9223372036854775808")) == .valid)
        #expect(
            DefaultValueVerdict.judge(attribute(.integer16, "2.0"))
                == .suspicious("\"2.0\" is a fractional spelling on an Integer 16 attribute; write 2"))
        #expect(
            DefaultValueVerdict.judge(attribute(.double, "1e400")) == .invalid("\"1e400\" is out of range for Double"))
        #expect(DefaultValueVerdict.judge(attribute(.float, "1e39")) == .invalid("\"1e39\" is out of range for Float"))
        #expect(DefaultValueVerdict.judge(attribute(.double, "0x1p3")) == .invalid("\"0x1p3\" is not a number"))
        #expect(DefaultValueVerdict.judge(attribute(.double, "nan")) == .invalid("\"nan\" is not a number"))
    }

    /// The whole file through the linter: one such default is one finding, and every other bundle is still reported.
    @Test func testOneOverflowingDefaultDoesNotStopTheRun() throws {
        let directory = try temporary.make()
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
        #expect(out.exitCode == 1, Comment(rawValue: out.standardError))
        let json = try #require(JSONSerialization.jsonObject(with: Data(out.standardOutput.utf8)) as? [String: Any])
        let messages = (json["diagnostics"] as? [[String: Any]] ?? []).map { "\($0["ruleId"]!) \($0["message"]!)" }
        #expect(
            messages == [
                "invalid-default-value T.a has an invalid default: \"1e19\" is not a whole number in range for Integer 64",
                "invalid-default-value U.b has an invalid default: \"70000\" is out of range for Integer 16 (-32768...32767)",
            ])
    }

    /// Random spellings per attribute type: no crash, and for integer types the verdict an independent
    /// decimal reading gives (digit strings compared as numbers; Foundation's Decimal for the rest).
    @Test func testRandomNumericSpellingsPerType() {
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
                #expect(kind(verdict) == expectedIntegerVerdict(value, range), "\(type.xmlValue) \"\(value)\"")
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
        var a = Attribute(name: "a", location: ModelLintModel.SourceLocation(file: "f"), type: type)
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
