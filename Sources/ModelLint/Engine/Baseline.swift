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

        package init(
            ruleId: String, file: String, version: String, entity: String, property: String, message: String,
            key: String? = nil
        ) {
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
    /// The entries, for a baseline made from a report (`--write-baseline`); a loaded baseline keeps only what
    /// it is matched on (`matchCounts`), so a million accepted findings cost their keys and no more.
    public var entries: [Entry]
    /// Match key (`match`) -> how many findings it hides.
    package var matchCounts: [Digest128: Int]
    /// How many findings the baseline records.
    public var count: Int

    package static func entry(_ d: Diagnostic, directory: String, workingDirectory: String) -> Entry {
        func relative(_ path: String) -> String {
            let absolute = PathTools.absolute(path, relativeTo: workingDirectory)
            return PathTools.relative(absolute, to: directory) ?? absolute
        }
        return Entry(
            ruleId: d.ruleId, file: relative(d.file), version: d.version ?? "",
            entity: d.entity ?? "", property: d.property ?? "", message: d.message,
            key: d.stableKey(bundle: relative(d.bundle)))
    }

    /// What an entry is matched on: its key (format 2), else the format-1 fields; as a digest of those bytes.
    private static func match(_ e: Entry) -> Digest128 {
        if let key = e.key { return Digest128(key) }
        var text: [UInt8] = []
        formatOneText(
            [e.ruleId, e.file, e.version, e.entity, e.property, e.message].map { Array($0.utf8) }, into: &text)
        return Digest128(text)
    }

    /// What a format-1 entry matches on: "1", then ruleId, file, version, entity, property and message, each after
    /// a unit separator.
    private static func formatOneText(_ fields: [[UInt8]], into text: inout [UInt8]) {
        text.removeAll(keepingCapacity: true)
        text.append(UInt8(ascii: "1"))
        for field in fields.prefix(6) {
            text.append(0x1F)
            text += field
        }
    }

    public init(report: LintReport, baselinePath: String, workingDirectory: String) {
        let directory = (baselinePath as NSString).deletingLastPathComponent
        self.init(
            entries: report.diagnostics.map { Self.entry($0, directory: directory, workingDirectory: workingDirectory) }
                .sorted {
                    ($0.file, $0.ruleId, $0.version, $0.entity, $0.property, $0.message) < (
                        $1.file, $1.ruleId, $1.version, $1.entity, $1.property, $1.message
                    )
                })
    }

    public init(entries: [Entry]) {
        self.entries = entries
        var counts: [Digest128: Int] = [:]
        counts.reserveCapacity(entries.count)
        for entry in entries { counts[Self.match(entry), default: 0] += 1 }
        matchCounts = counts
        count = entries.count
    }

    private init(matchCounts: [Digest128: Int], count: Int) {
        entries = []
        self.matchCounts = matchCounts
        self.count = count
    }

    /// The report without the findings the baseline records; each entry hides one matching finding.
    public func filter(_ report: LintReport, baselinePath: String, workingDirectory: String) -> LintReport {
        let directory = (baselinePath as NSString).deletingLastPathComponent
        var remaining = matchCounts
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
            (
                "findings",
                .array(
                    entries.map { e in
                        .object([
                            ("ruleId", .string(e.ruleId)), ("file", .string(e.file)), ("version", .string(e.version)),
                            ("entity", .string(e.entity)), ("property", .string(e.property)),
                            ("message", .string(e.message)),
                            ("key", .string(e.key ?? "")),
                        ])
                    })
            ),
        ]).serialized() + "\n"
    }

    /// Why a baseline file cannot be used; the message names the file.
    public struct LoadError: Error, CustomStringConvertible, Equatable {
        public var description: String

        package init(_ description: String) { self.description = description }
    }

    /// Streamed (`JSONStreamReader`): each finding is reduced to its match key as it is read.
    public static func load(path: String) throws -> Baseline {
        let reader: JSONStreamReader
        do {
            reader = try JSONStreamReader(path: path, limit: FileReader.Limit.baseline)
        } catch FileReader.ReadError.missing {
            throw LoadError("baseline \(path): no such file (create it with --write-baseline)")
        } catch {
            throw LoadError("baseline \(path): \(error)")
        }
        var format: Int?
        var counts: [Digest128: Int] = [:]
        // Some 150-500 bytes a finding: room for the likely count, so the table is not rebuilt as it grows.
        counts.reserveCapacity(Swift.min(reader.fileSize / 160, 1 << 22))
        var count = 0
        // Entries read before "format" (a hand-reordered file): matched once the format is known.
        var pending: [Entry] = []
        var field: [UInt8] = []
        do {
            try reader.skipByteOrderMark()
            try reader.object { key in
                switch key {
                case "format":
                    guard let number = try reader.numberIfPresent(), let value = Int(exactly: number),
                        (1...formatVersion).contains(value)
                    else {
                        throw LoadError("baseline \(path): not a modellint baseline (format 1 or \(formatVersion))")
                    }
                    format = value
                case "findings":
                    // Each finding's string fields as bytes. Format 2 matches on the key alone, format 1 on six
                    // fields (`match`'s text, built from the bytes); with the format not yet read, whole entries
                    // are kept until it is.
                    // In `formatOneText`'s order, then the key; ruleId, file and message are required.
                    let names = ["ruleId", "file", "version", "entity", "property", "message", "key"].map {
                        Array($0.utf8)
                    }
                    let required = 1 << 0 | 1 << 1 | 1 << 5
                    var fields = [[UInt8]](repeating: [], count: names.count)
                    try reader.array {
                        let present = try reader.flatObject(names: names, into: &fields)
                        guard present & required == required else {
                            throw LoadError("baseline \(path): findings[\(count)] needs ruleId, file and message")
                        }
                        switch format {
                        case 2?:
                            guard !fields[6].isEmpty else {
                                throw LoadError("baseline \(path): findings[\(count)] needs a key (format 2)")
                            }
                            counts[Digest128(fields[6]), default: 0] += 1
                        case 1?:
                            formatOneText(fields, into: &field)
                            counts[Digest128(field), default: 0] += 1
                        default:
                            func text(_ i: Int) -> String { String(decoding: fields[i], as: UTF8.self) }
                            pending.append(
                                Entry(
                                    ruleId: text(0), file: text(1), version: text(2), entity: text(3),
                                    property: text(4),
                                    message: text(5), key: fields[6].isEmpty ? nil : text(6)))
                        }
                        count += 1
                    }
                default:
                    try reader.skipValue()
                }
            }
            guard try reader.atEnd() else { throw reader.error("unexpected text after the value") }
        } catch let error as LoadError {
            throw error
        } catch {
            throw LoadError("baseline \(path): \(error)")
        }
        guard let format else {
            throw LoadError("baseline \(path): not a modellint baseline (format 1 or \(formatVersion))")
        }
        for var entry in pending {
            if format == 1 {
                entry.key = nil
            } else if entry.key == nil {
                throw LoadError("baseline \(path): a finding needs a key (format 2)")
            }
            counts[match(entry), default: 0] += 1
        }
        return Baseline(matchCounts: counts, count: count)
    }
}
