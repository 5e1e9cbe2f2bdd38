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
    private let tree: String
    /// By absolute path, as stored.
    package private(set) var entries: [String: Entry] = [:]

    package init(cache: ResultCache, tree: String) {
        self.cache = cache
        self.tree = tree
        guard cache.folder != nil, let files = cache.value(forKey: tree, kind: Self.kind)?.arrayValue else { return }
        for file in files {
            guard let fields = file.arrayValue, fields.count == 4, let path = fields[0].stringValue,
                let identity = fields[1].arrayValue?.compactMap(\.doubleValue), identity.count == 7,
                let references = fields[2].arrayValue.map({ $0.compactMap(SourceReference.init(cached:)) }),
                references.count == fields[2].arrayValue?.count, let mentionsSwiftData = fields[3].boolValue
            else { continue }
            entries[path] = Entry(identity: identity, references: references, mentionsSwiftData: mentionsSwiftData)
        }
    }

    /// What `file` held when it had this identity; nil when it is not known so.
    package func entry(of file: String, identity: [Double]) -> Entry? {
        guard let entry = entries[file], entry.identity == identity else { return nil }
        return entry
    }

    /// Keeps `entries` (every file the run scanned) in place of what was stored.
    package func store(_ entries: [String: Entry]) {
        guard cache.folder != nil else { return }
        let files = entries.sorted { $0.key < $1.key }.map { path, entry -> JSONValue in
            .array([
                .string(path), .array(entry.identity.map { .number($0) }), .array(entry.references.map(\.cached)),
                .bool(entry.mentionsSwiftData),
            ])
        }
        cache.store(.array(files), forKey: tree, kind: Self.kind)
    }
}

extension SourceReference {
    /// `[kind, line, column, values…]`.
    var cached: JSONValue {
        let values: [String]
        let code: String
        switch kind {
        case .checksum(let value): (code, values) = ("checksum", [value])
        case .versionName(let value): (code, values) = ("versionName", [value])
        case .generatedCurrentVersion(let bundle, let version): (code, values) = ("generated", [bundle, version])
        case .stepMigrator(let api): (code, values) = ("stepMigrator", [api])
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

    init?(cached: JSONValue) {
        guard let fields = cached.arrayValue, fields.count >= 3, let code = fields[0].stringValue,
            let line = fields[1].intValue, let column = fields[2].intValue
        else { return nil }
        let values = fields.dropFirst(3).compactMap(\.stringValue)
        let kind: Kind
        switch (code, values.count, fields.count) {
        case ("checksum", 1, 4): kind = .checksum(values[0])
        case ("versionName", 1, 4): kind = .versionName(values[0])
        case ("generated", 2, 5): kind = .generatedCurrentVersion(bundle: values[0], version: values[1])
        case ("stepMigrator", 1, 4): kind = .stepMigrator(values[0])
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
