import Foundation

/// Findings a team has accepted for now (`--write-baseline`), hidden from later runs (`--baseline`).
/// Matched on file, rule, version, entity, property and message, never on line numbers, so edits elsewhere
/// in a file do not resurrect them; paths are relative to the baseline file, so they match on any machine.
public struct Baseline: Equatable, Sendable {
    public struct Entry: Hashable, Sendable {
        public var ruleId: String
        public var file: String
        public var version: String
        public var entity: String
        public var property: String
        public var message: String
    }

    public static let formatVersion = 1
    public var entries: [Entry]

    static func entry(_ d: Diagnostic, directory: String, workingDirectory: String) -> Entry {
        let absolute = PathTools.absolute(d.file, relativeTo: workingDirectory)
        return Entry(ruleId: d.ruleId, file: PathTools.relative(absolute, to: directory) ?? absolute, version: d.version ?? "",
                     entity: d.entity ?? "", property: d.property ?? "", message: d.message)
    }

    public init(report: LintReport, baselinePath: String, workingDirectory: String) {
        let directory = (baselinePath as NSString).deletingLastPathComponent
        entries = report.diagnostics.map { Self.entry($0, directory: directory, workingDirectory: workingDirectory) }
            .sorted { ($0.file, $0.ruleId, $0.version, $0.entity, $0.property, $0.message) < ($1.file, $1.ruleId, $1.version, $1.entity, $1.property, $1.message) }
    }

    public init(entries: [Entry]) { self.entries = entries }

    /// The report without the findings the baseline records; each entry hides one matching finding.
    public func filter(_ report: LintReport, baselinePath: String, workingDirectory: String) -> LintReport {
        let directory = (baselinePath as NSString).deletingLastPathComponent
        var remaining: [Entry: Int] = [:]
        remaining.reserveCapacity(entries.count)
        for entry in entries { remaining[entry, default: 0] += 1 }
        let kept = report.diagnostics.filter { d in
            let key = Self.entry(d, directory: directory, workingDirectory: workingDirectory)
            guard let count = remaining[key], count > 0 else { return true }
            remaining[key] = count - 1
            return false
        }
        return LintReport(bundles: report.bundles, diagnostics: kept)
    }

    public func serialized() -> String {
        JSONValue.object([
            ("format", .number(Double(Self.formatVersion))),
            ("findings", .array(entries.map { e in
                .object([("ruleId", .string(e.ruleId)), ("file", .string(e.file)), ("version", .string(e.version)),
                         ("entity", .string(e.entity)), ("property", .string(e.property)), ("message", .string(e.message))])
            })),
        ]).serialized() + "\n"
    }

    public static func load(path: String) throws -> Baseline {
        let data: Data
        do {
            data = try FileReader.read(path, limit: FileReader.Limit.dataFile)
        } catch FileReader.ReadError.missing {
            throw UsageError("baseline \(path): no such file (create it with --write-baseline)")
        } catch {
            throw UsageError("baseline \(path): \(error)")
        }
        let json: JSONValue
        do { json = try JSONValue.parse(data) } catch { throw UsageError("baseline \(path): \(error)") }
        guard json["format"]?.intValue == formatVersion, let findings = json["findings"]?.arrayValue else {
            throw UsageError("baseline \(path): not a modellint baseline (format \(formatVersion))")
        }
        return Baseline(entries: try findings.enumerated().map { i, item in
            guard let rule = item["ruleId"]?.stringValue, let file = item["file"]?.stringValue, let message = item["message"]?.stringValue else {
                throw UsageError("baseline \(path): findings[\(i)] needs ruleId, file and message")
            }
            return Entry(ruleId: rule, file: file, version: item["version"]?.stringValue ?? "", entity: item["entity"]?.stringValue ?? "",
                         property: item["property"]?.stringValue ?? "", message: message)
        })
    }
}
