import Foundation
import ModelLintSupport
import ModelLintModel

/// What the code scan found in each Swift file of a tree, and whether the file mentions SwiftData, kept between
/// runs in the result cache: a file whose identity (device, inode, size, modification and change times) is
/// unchanged is not read again unless SwiftData's reader needs its text. One entry per tree; an entry that cannot
/// be read as written is ignored, and replaced by the run.
package struct SourceReferenceCache: Sendable {
    package struct Entry: Sendable, Equatable {
        package var identity: [Double]
        /// Located by line and column; the file is the reader's to name.
        package var references: [SourceReference]
        package var mentionsSwiftData: Bool

        package init(identity: [Double], references: [SourceReference], mentionsSwiftData: Bool) {
            self.identity = identity
            self.references = references
            self.mentionsSwiftData = mentionsSwiftData
        }
    }

    static let kind = "swift-references"
    private let cache: ResultCache
    /// The tree, and the words that make a file mention SwiftData: entries judged with other words are not these.
    private let key: String
    /// By absolute path, as stored.
    package private(set) var entries: [String: Entry] = [:]

    package init(cache: ResultCache, tree: String, mentionWords: [String]) {
        self.cache = cache
        // The scan's own revision too: an entry made by a scan that read less (an older keyword list, lines split
        // only at LF) is not this scan's.
        key = ([tree, "scan \(SourceReference.scanRevision)"] + mentionWords).joined(separator: "\u{1F}")
        guard cache.folder != nil, let records = cache.records(forKey: key, kind: Self.kind) else { return }
        for record in records {
            guard let (path, entry) = Self.entry(record) else { continue }
            entries[path] = entry
        }
    }

    /// `path TAB seven identity numbers TAB 0|1 (mentions SwiftData) TAB references (JSON)`: a tree's files are
    /// hundreds of records, most without references, and reading them must cost less than the files' checks.
    private static func record(path: String, entry: Entry) -> String? {
        guard entry.identity.count == 7, !path.isEmpty, !path.utf8.contains(where: { $0 == 0x09 || $0 == 0x0A })
        else { return nil }
        let numbers = entry.identity.map { JSONValue.number($0).serialized(indent: nil) }
        let references =
            entry.references.isEmpty ? "[]" : JSONValue.array(entry.references.map(\.cached)).serialized(indent: nil)
        return ([path] + numbers + [entry.mentionsSwiftData ? "1" : "0", references]).joined(separator: "\t")
    }

    private static func entry(_ record: ArraySlice<UInt8>) -> (String, Entry)? {
        let fields = ByteSearch.pieces(of: record, separatedBy: 0x09)
        guard fields.count == 10, !fields[0].isEmpty, fields[8].count == 1, fields[8] == [0x30] || fields[8] == [0x31]
        else { return nil }
        var identity: [Double] = []
        identity.reserveCapacity(7)
        for field in fields[1...7] {
            guard let number = Self.number(field) else { return nil }
            identity.append(number)
        }
        var references: [SourceReference] = []
        if !fields[9].elementsEqual("[]".utf8) {
            guard let items = (try? JSONValue.parse(Data(fields[9]), maxDepth: 4, json5: false))?.arrayValue else {
                return nil
            }
            references = items.compactMap(SourceReference.init(cached:))
            guard references.count == items.count else { return nil }
        }
        return (
            String(decoding: fields[0], as: UTF8.self),
            Entry(identity: identity, references: references, mentionsSwiftData: fields[8] == [0x31])
        )
    }

    /// An identity number as `record` writes it (as JSON writes a number): digits (an optional minus), or Swift's
    /// text of a `Double`.
    private static func number(_ field: ArraySlice<UInt8>) -> Double? {
        guard !field.isEmpty, field.count <= 40 else { return nil }
        let digits = field.first == 0x2D ? field.dropFirst() : field[...]
        if !digits.isEmpty, digits.count <= 15, digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
            let value = digits.reduce(0) { $0 * 10 + Int64($1 - 0x30) }
            return Double(field.first == 0x2D ? -value : value)
        }
        return Double(String(decoding: field, as: UTF8.self)).flatMap { $0.isFinite ? $0 : nil }
    }

    /// What `file` held when it had this identity; nil when it is not known so.
    package func entry(of file: String, identity: [Double]) -> Entry? {
        guard let entry = entries[file], entry.identity == identity else { return nil }
        return entry
    }

    /// Keeps `entries` (every file the run scanned) in place of what was stored. A file whose path holds a tab or
    /// a line break is not kept: it is read again next run.
    package func store(_ entries: [String: Entry]) {
        guard cache.folder != nil else { return }
        let records = entries.sorted { $0.key < $1.key }.compactMap { Self.record(path: $0.key, entry: $0.value) }
        cache.store(records: records, forKey: key, kind: Self.kind)
    }
}

extension SourceReference {
    /// `[kind, line, column, values…]`.
    package var cached: JSONValue {
        let values: [String]
        let code: String
        switch kind {
        case .checksum(let value): (code, values) = ("checksum", [value])
        case .versionName(let value): (code, values) = ("versionName", [value])
        case .generatedCurrentVersion(let bundle, let version): (code, values) = ("generated", [bundle, version])
        case .stepMigrator(let api): (code, values) = ("stepMigrator", [api])
        case .storeDestroyer(let api): (code, values) = ("storeDestroyer", [api])
        case .modelName(let name): (code, values) = ("modelName", [name])
        case .transformer(let t):
            return .array([
                .string("transformer"), .number(Double(location.line ?? 0)), .number(Double(location.column ?? 0)),
                .string(t.className), .string(t.base), .array(t.names.map { .string($0) }),
                t.allowedClasses.map { .array($0.map { .string($0) }) } ?? .null,
            ])
        }
        return .array(
            [.string(code), .number(Double(location.line ?? 0)), .number(Double(location.column ?? 0))]
                + values.map { .string($0) })
    }

    package init?(cached: JSONValue) {
        guard let fields = cached.arrayValue, fields.count >= 3, let code = fields[0].stringValue,
            let line = fields[1].intValue, let column = fields[2].intValue,
            (0...Int(Int32.max)).contains(line), (0...Int(Int32.max)).contains(column)
        else { return nil }
        let values = fields.dropFirst(3).compactMap(\.stringValue)
        let kind: Kind
        switch (code, values.count, fields.count) {
        case ("checksum", 1, 4): kind = .checksum(values[0])
        case ("versionName", 1, 4): kind = .versionName(values[0])
        case ("generated", 2, 5): kind = .generatedCurrentVersion(bundle: values[0], version: values[1])
        case ("stepMigrator", 1, 4): kind = .stepMigrator(values[0])
        case ("storeDestroyer", 1, 4): kind = .storeDestroyer(values[0])
        case ("modelName", 1, 4): kind = .modelName(values[0])
        case ("transformer", 2, 7):
            guard let names = fields[5].arrayValue?.compactMap(\.stringValue) else { return nil }
            let allowed = fields[6].arrayValue?.compactMap(\.stringValue)
            guard fields[6] == .null || allowed != nil else { return nil }
            kind = .transformer(
                AppTransformer(className: values[0], base: values[1], names: names, allowedClasses: allowed))
        default: return nil
        }
        self.init(
            kind: kind,
            location: SourceLocation(file: "", line: line == 0 ? nil : line, column: column == 0 ? nil : column))
    }
}
