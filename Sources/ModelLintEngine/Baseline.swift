import Foundation
import ModelLintSupport
import ModelLintModel
import ModelLintRules

/// Findings a team has accepted for now (`--write-baseline`), hidden from later runs (`--baseline`).
/// Format 2 matches on each finding's stable identity (`Diagnostic.stableKey`: rule, bundle, element
/// identifiers, older versions; never message, line or the current version's name), so `new-version`, moved
/// lines and reworded messages keep accepted findings accepted. Format 1 files (matched on file, rule, version,
/// entity, property and message) are still read. Paths are relative to the baseline file, so they match on any
/// machine.
public struct Baseline: Equatable, Sendable {
    public struct Entry: Hashable, Sendable {
        public var ruleId: String
        public var file: String
        public var version: String
        public var entity: String
        public var property: String
        public var message: String
        /// Format 2: the stable identity this entry matches (nil for an entry read from a format-1 file).
        public var key: String?

        package init(ruleId: String, file: String, version: String, entity: String, property: String, message: String, key: String? = nil) {
            self.ruleId = ruleId
            self.file = file
            self.version = version
            self.entity = entity
            self.property = property
            self.message = message
            self.key = key
        }
    }

    public static let formatVersion = 2
    public var entries: [Entry]

    package static func entry(_ d: Diagnostic, directory: String, workingDirectory: String) -> Entry {
        func relative(_ path: String) -> String {
            let absolute = PathTools.absolute(path, relativeTo: workingDirectory)
            return PathTools.relative(absolute, to: directory) ?? absolute
        }
        return Entry(ruleId: d.ruleId, file: relative(d.file), version: d.version ?? "",
                     entity: d.entity ?? "", property: d.property ?? "", message: d.message, key: d.stableKey(bundle: relative(d.bundle)))
    }

    /// What an entry is matched on: its key (format 2), else the format-1 fields.
    private static func match(_ e: Entry) -> String {
        e.key ?? ["1", e.ruleId, e.file, e.version, e.entity, e.property, e.message].joined(separator: "\u{1F}")
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
        var remaining: [String: Int] = [:]
        remaining.reserveCapacity(entries.count)
        for entry in entries { remaining[Self.match(entry), default: 0] += 1 }
        let kept = report.diagnostics.filter { d in
            var entry = Self.entry(d, directory: directory, workingDirectory: workingDirectory)
            if entry.key != nil && remaining[Self.match(entry)] == nil { entry.key = nil }  // a format-1 entry, perhaps
            let key = Self.match(entry)
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
                         ("entity", .string(e.entity)), ("property", .string(e.property)), ("message", .string(e.message)),
                         ("key", .string(e.key ?? ""))])
            })),
        ]).serialized() + "\n"
    }

    /// Why a baseline file cannot be used; the message names the file.
    public struct LoadError: Error, CustomStringConvertible, Equatable {
        public var description: String

        package init(_ description: String) { self.description = description }
    }

    public static func load(path: String) throws -> Baseline {
        let data: Data
        do {
            data = try FileReader.read(path, limit: FileReader.Limit.dataFile)
        } catch FileReader.ReadError.missing {
            throw LoadError("baseline \(path): no such file (create it with --write-baseline)")
        } catch {
            throw LoadError("baseline \(path): \(error)")
        }
        let json: JSONValue
        do { json = try JSONValue.parse(data) } catch { throw LoadError("baseline \(path): \(error)") }
        guard let format = json["format"]?.intValue, (1...formatVersion).contains(format), let findings = json["findings"]?.arrayValue else {
            throw LoadError("baseline \(path): not a modellint baseline (format 1 or \(formatVersion))")
        }
        return Baseline(entries: try findings.enumerated().map { i, item in
            guard let rule = item["ruleId"]?.stringValue, let file = item["file"]?.stringValue, let message = item["message"]?.stringValue else {
                throw LoadError("baseline \(path): findings[\(i)] needs ruleId, file and message")
            }
            let key = format >= 2 ? item["key"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 } : nil
            if format >= 2 && key == nil { throw LoadError("baseline \(path): findings[\(i)] needs a key (format 2)") }
            return Entry(ruleId: rule, file: file, version: item["version"]?.stringValue ?? "", entity: item["entity"]?.stringValue ?? "",
                         property: item["property"]?.stringValue ?? "", message: message, key: key)
        })
    }
}
