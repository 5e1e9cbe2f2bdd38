import Foundation
import ModelLintSupport
import ModelLintModel
import ModelLintRules
import ModelLintGather

/// Findings a team has accepted for now (`--write-baseline`), hidden from later runs (`--baseline`).
/// Each finding is matched on its stable identity (`Diagnostic.stableKey`: rule, bundle, element identifiers, older
/// versions; never message, line or the current version's name), so `new-version`, moved lines and reworded
/// messages keep accepted findings accepted. Format 3 keeps paths relative to the repository that holds the baseline
/// file (`..` for a bundle outside its folder), so a baseline committed anywhere in the repository matches in every
/// clone, from any working directory. Format 2 (paths relative to the baseline's folder) and format 1 (matched on
/// file, rule, version, entity, property and message) are still read.
package struct Baseline: Equatable, Sendable {
    package struct Entry: Hashable, Sendable {
        package var ruleId: String
        package var file: String
        package var version: String
        package var entity: String
        package var property: String
        package var message: String
        /// Format 2: the stable identity this entry matches (nil for an entry read from a format-1 file).
        package var key: String?

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

    package static let formatVersion = 3

    /// Where a baseline's paths are relative to, and how a finding's displayed paths become those.
    package struct Paths: Sendable {
        /// The baseline file's folder (formats 1 and 2).
        package var folder: String
        /// The repository holding the baseline file, else its folder (format 3); a real path.
        package var root: String
        package var workingDirectory: String

        /// `repositoryRoot`: the top folder of the git work tree holding the baseline file, if any.
        package init(baselineFile: String, repositoryRoot: String?, workingDirectory: String) {
            folder = (baselineFile as NSString).deletingLastPathComponent
            let anchor = repositoryRoot ?? folder
            root = PathTools.realPath(anchor) ?? anchor
            self.workingDirectory = workingDirectory
        }

        /// A finding's path as a baseline of `format` records it.
        func recorded(_ path: String, format: Int) -> String {
            let absolute = PathTools.absolute(path, relativeTo: workingDirectory)
            guard format >= 3 else { return PathTools.relative(absolute, to: folder) ?? absolute }
            // Resolved as the root is (git reports a work tree's real path: /private/tmp, not /tmp).
            return PathTools.relativeWithParents(PathTools.realPath(absolute) ?? absolute, to: root)
        }
    }
    /// The entries, for a baseline made from a report (`--write-baseline`); a loaded baseline keeps only what
    /// it is matched on (`matchCounts`), so a million accepted findings cost their keys and no more.
    package var entries: [Entry]
    /// Match key (`match`) -> how many findings it hides.
    package var matchCounts: [Digest128: Int]
    /// How many findings the baseline records.
    package var count: Int
    /// The format it was written in (a made baseline: the current one).
    package var format = formatVersion
    /// Entries `load(path:naming:)` was asked to name, as `rule file entity.property`.
    package var named: [String] = []

    package static func entry(_ d: Diagnostic, paths: Paths, format: Int = formatVersion) -> Entry {
        var known: [String: String] = [:]
        func relative(_ path: String) -> String {
            if let done = known[path] { return done }
            let made = paths.recorded(path, format: format)
            known[path] = made
            return made
        }
        return Entry(
            ruleId: d.ruleId, file: relative(d.file), version: d.version ?? "",
            entity: d.entity ?? "", property: d.property ?? "", message: d.message,
            key: d.stableKey(bundle: relative(d.bundle)))
    }

    /// What an entry is matched on: its key (formats 2 and 3), else the format-1 fields; as a digest of those bytes.
    package static func match(_ e: Entry) -> Digest128 {
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

    package init(report: LintReport, paths: Paths) {
        self.init(
            entries: report.diagnostics.map { Self.entry($0, paths: paths) }
                .sorted {
                    ($0.file, $0.ruleId, $0.version, $0.entity, $0.property, $0.message) < (
                        $1.file, $1.ruleId, $1.version, $1.entity, $1.property, $1.message
                    )
                })
    }

    package init(entries: [Entry]) {
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

    /// Rules whose findings no baseline hides: those about a change to the settings, the baseline among them.
    static let unhideable: Set<String> = Set(
        RuleSet.registry.configurationChange.map(\.id))

    /// The report without the findings the baseline records (each entry hides one matching finding), and the
    /// entries that matched none: findings fixed since, or a baseline recorded with other paths.
    package func filter(_ report: LintReport, paths: Paths) -> (report: LintReport, unmatched: [Digest128: Int]) {
        var remaining = matchCounts
        let kept = report.diagnostics.filter { d in
            // What a change does to the settings is judged against the revision's baseline, never hidden by its own.
            if Self.unhideable.contains(d.ruleId) { return true }
            var entry = Self.entry(d, paths: paths, format: format)
            if entry.key != nil && remaining[Self.match(entry)] == nil { entry.key = nil }  // a format-1 entry, perhaps
            let key = Self.match(entry)
            guard let count = remaining[key], count > 0 else { return true }
            remaining[key] = count - 1
            return false
        }
        return (LintReport(bundles: report.bundles, diagnostics: kept), remaining.filter { $0.value > 0 })
    }

    package func serialized() -> String {
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
    package struct LoadError: Error, CustomStringConvertible, Equatable {
        package var description: String

        package init(_ description: String) { self.description = description }
    }

    /// How many entries `load(path:naming:)` names.
    static let namedLimit = 5

    /// Streamed (`JSONStreamReader`): each finding is reduced to its match key as it is read. `naming`: match keys
    /// (of `filter`'s unmatched entries) whose entries are kept as text in `named`, the first `namedLimit`; a read
    /// that names stops there, as the file was read whole once already.
    package static func load(path: String, naming: [Digest128: Int] = [:]) throws -> Baseline {
        let reader: JSONStreamReader
        do {
            reader = try JSONStreamReader(path: path, limit: FileReader.Limit.baseline)
        } catch FileReader.ReadError.missing {
            throw LoadError("baseline \(path): no such file (create it with --write-baseline)")
        } catch {
            throw LoadError("baseline \(path): \(error)")
        }
        var format: Int?
        // Some 150-500 bytes a finding: room for the likely count, so the table is not rebuilt as it grows.
        var counts = MatchCounter(capacity: Swift.min(reader.fileSize / 160, 1 << 22))
        var count = 0
        // Entries read before "format" (a hand-reordered file): matched once the format is known.
        var pending: [Entry] = []
        var field: [UInt8] = []
        var named: [String] = []
        struct Named: Error {}
        func name(_ digest: Digest128, _ text: (Int) -> String) throws {
            guard !naming.isEmpty, naming[digest] != nil else { return }
            let element = [text(3), text(4)].filter { !$0.isEmpty }.joined(separator: ".")
            named.append([text(0), text(1), element].filter { !$0.isEmpty }.joined(separator: " "))
            if named.count == namedLimit { throw Named() }
        }
        do {
            try reader.skipByteOrderMark()
            try reader.object { key in
                switch key {
                case "format":
                    guard let number = try reader.numberIfPresent(), let value = Int(exactly: number),
                        (1...formatVersion).contains(value)
                    else {
                        throw LoadError("baseline \(path): not a modellint baseline (format 1 to \(formatVersion))")
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
                    func text(_ i: Int) -> String { String(decoding: reader.field(i), as: UTF8.self) }
                    try reader.array {
                        let present = try reader.flatObject(names: names)
                        guard present & required == required else {
                            throw LoadError("baseline \(path): findings[\(count)] needs ruleId, file and message")
                        }
                        switch format {
                        case 2?, 3?:
                            guard !reader.field(6).isEmpty else {
                                throw LoadError("baseline \(path): findings[\(count)] needs a key (format \(format!))")
                            }
                            let digest = Digest128(reader.field(6))
                            counts.add(digest)
                            try name(digest, text)
                        case 1?:
                            formatOneText((0..<6).map { Array(reader.field($0)) }, into: &field)
                            let digest = Digest128(field)
                            counts.add(digest)
                            try name(digest, text)
                        default:
                            pending.append(
                                Entry(
                                    ruleId: text(0), file: text(1), version: text(2), entity: text(3),
                                    property: text(4),
                                    message: text(5), key: reader.field(6).isEmpty ? nil : text(6)))
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
        } catch is Named {
            var baseline = Baseline(matchCounts: [:], count: count)
            baseline.named = named
            return baseline
        } catch {
            throw LoadError("baseline \(path): \(error)")
        }
        guard let format else {
            throw LoadError("baseline \(path): not a modellint baseline (format 1 to \(formatVersion))")
        }
        for var entry in pending {
            if format == 1 {
                entry.key = nil
            } else if entry.key == nil {
                throw LoadError("baseline \(path): a finding needs a key (format \(format))")
            }
            let digest = match(entry)
            counts.add(digest)
            guard named.count < namedLimit else { continue }
            let fields = [entry.ruleId, entry.file, entry.version, entry.entity, entry.property]
            try? name(digest) { fields[$0] }
        }
        var baseline = Baseline(matchCounts: counts.table(), count: count)
        baseline.format = format
        baseline.named = named
        return baseline
    }
}

/// A baseline's match-key table, filled on the other core as the reader finds the keys: a million writes at random
/// places in a table too big for the cache cost about a fifth of reading the file.
private struct MatchCounter {
    private let queue = DispatchQueue(label: "modellint.baseline-counts")
    private let counts: Locked<[Digest128: Int]>
    private var batch: [Digest128] = []
    private let batchSize = 4096

    init(capacity: Int) {
        var table: [Digest128: Int] = [:]
        table.reserveCapacity(capacity)
        counts = Locked(table)
    }

    mutating func add(_ digest: Digest128) {
        batch.append(digest)
        if batch.count == batchSize { flush() }
    }

    private mutating func flush() {
        guard !batch.isEmpty else { return }
        let keys = batch
        let counts = counts
        batch = []
        batch.reserveCapacity(batchSize)
        queue.async { counts.withLock { table in for key in keys { table[key, default: 0] += 1 } } }
    }

    /// The table, once every key added is counted.
    mutating func table() -> [Digest128: Int] {
        flush()
        queue.sync {}
        return counts.withLock { table in
            defer { table = [:] }
            return table
        }
    }
}
