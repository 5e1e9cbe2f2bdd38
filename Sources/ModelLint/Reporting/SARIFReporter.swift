import ModelLintSupport
import ModelLintRules
import ModelLintEngine
import ModelLintGather

/// SARIF 2.1.0, one run, for GitHub code scanning and other SARIF consumers.
package struct SARIFReporter: Reporter {
    package var rules: [RuleDescription]
    package var paths: PathRelativizer

    package init(rules: [RuleDescription], paths: PathRelativizer) {
        self.rules = rules
        self.paths = paths
    }

    package func write(_ report: LintReport, to sink: OutputSink) {
        let index = Dictionary(uniqueKeysWithValues: rules.enumerated().map { ($1.id, $0) })
        let driverRules: [JSONValue] = rules.map { rule in
            .object([
                ("id", .string(rule.id)),
                ("name", .string(Self.pascalCase(rule.id))),
                ("shortDescription", .object([("text", .string(rule.summary))])),
                ("fullDescription", .object([("text", .string(rule.rationale))])),
                (
                    "help",
                    .object([
                        (
                            "text",
                            .string(
                                "Fix: \(rule.fix)" + (rule.swiftDataFix.map { "\nIn a SwiftData schema: \($0)" } ?? ""))
                        ),
                        (
                            "markdown",
                            .string(
                                "**Fix:** \(rule.fix)\n\n"
                                    + (rule.swiftDataFix.map { "**In a SwiftData schema:** \($0)\n\n" } ?? "")
                                    + "[Documentation](\(RuleDocumentation.helpURI(for: rule.id)))")
                        ),
                    ])
                ),
                ("helpUri", .string(RuleDocumentation.helpURI(for: rule.id))),
                ("defaultConfiguration", .object([("level", .string(Self.level(rule.severity)))])),
                ("properties", .object([("tags", .array([.string(rule.category.rawValue)]))])),
            ])
        }
        func result(_ d: Diagnostic) -> JSONValue {
            var region: [(String, JSONValue)] = [("startLine", .number(Double(max(d.line ?? 1, 1))))]
            if let column = d.column { region.append(("startColumn", .number(Double(max(column, 1))))) }
            var result: [(String, JSONValue)] = [("ruleId", .string(d.ruleId))]
            if let i = index[d.ruleId] { result.append(("ruleIndex", .number(Double(i)))) }
            result += [
                ("level", .string(Self.level(d.severity))),
                ("message", .object([("text", .string(d.message + "\nFix: " + d.fix))])),
                (
                    "locations",
                    .array([
                        .object([
                            (
                                "physicalLocation",
                                .object([
                                    (
                                        "artifactLocation",
                                        .object([
                                            ("uri", .string(Self.uri(paths.path(d.file)))),
                                            ("uriBaseId", .string("%SRCROOT%")),
                                        ])
                                    ),
                                    ("region", .object(region)),
                                ])
                            )
                        ])
                    ])
                ),
                // GitHub matches alerts on this, not on the line: the finding's stable identity (no message, line
                // or current version name), so moved lines and a new version keep an alert the same alert.
                (
                    "partialFingerprints",
                    .object([
                        ("modellint/v2", .string(String(SHA256.hex(Self.fingerprintInput(d, paths: paths)).prefix(32))))
                    ])
                ),
            ]
            var properties: [(String, JSONValue)] = [("bundle", .string(paths.path(d.bundle)))]
            if let v = d.version { properties.append(("version", .string(v))) }
            if let v = d.fromVersion { properties.append(("fromVersion", .string(v))) }
            if let v = d.entity { properties.append(("entity", .string(v))) }
            if let v = d.property { properties.append(("property", .string(v))) }
            result.append(("properties", .object(properties)))
            return .object(result)
        }
        let tool: JSONValue = .object([
            (
                "driver",
                .object([
                    ("name", .string("modellint")),
                    ("version", .string(ModelLintVersion.current)),
                    ("semanticVersion", .string(ModelLintVersion.current)),
                    ("informationUri", .string(RuleDocumentation.repositoryURL)),
                    ("rules", .array(driverRules)),
                ])
            )
        ])
        // What serializing the whole log gives, written a result at a time.
        let writer = JSONStreamWriter(sink: sink)
        writer.beginObject()
        writer.member("$schema", .string("https://json.schemastore.org/sarif-2.1.0.json"))
        writer.member("version", .string("2.1.0"))
        writer.beginArray("runs")
        writer.beginObject()
        writer.member("tool", tool)
        writer.member(
            "originalUriBaseIds",
            .object([("%SRCROOT%", .object([("uri", .string("file://" + Self.uri(paths.root) + "/"))]))]))
        writer.beginArray("results")
        for d in report.diagnostics { writer.element(result(d)) }
        writer.end()
        writer.end()
        writer.end()
        writer.end()
    }

    package static func fingerprintInput(_ d: Diagnostic, paths: PathRelativizer) -> String {
        d.stableKey(bundle: paths.path(d.bundle))
    }

    package static func level(_ severity: Severity) -> String {
        switch severity {
        case .error: return "error"
        case .warning: return "warning"
        case .note: return "note"
        }
    }

    package static func pascalCase(_ id: String) -> String {
        id.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    /// A relative URI reference: each path segment percent-encoded (spaces are common in version names).
    package static func uri(_ path: String) -> String {
        let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~/".unicodeScalars)
        var out = ""
        for byte in path.utf8 {
            let scalar = Unicode.Scalar(byte)
            if byte < 0x80 && allowed.contains(scalar) {
                out.unicodeScalars.append(scalar)
            } else {
                out += "%" + String(format2: byte)
            }
        }
        return out
    }
}

extension String {
    package init(format2 byte: UInt8) {
        let digits = Array("0123456789ABCDEF")
        self = String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
    }
}
