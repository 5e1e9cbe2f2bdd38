import Foundation

/// `modellint.lock`: the shipped versions of each bundle and their digests (cli.md "Lock file").
public struct LockFile: Equatable, Sendable {
    public static let fileName = "modellint.lock"
    public static let formatVersion = 1

    /// Bundle path relative to the lock file's folder -> version name -> digests.
    public var bundles: [String: [String: VersionDigest]]

    public init(bundles: [String: [String: VersionDigest]] = [:]) {
        self.bundles = bundles
    }

    public struct LockError: Error, CustomStringConvertible, Equatable {
        public var file: String
        public var message: String
        /// The file is damaged (not a wrongly versioned one): `lock --force` rebuilds it.
        public var repairable = false
        public var description: String { "\(file): \(message)" + (repairable ? " (repair it with modellint lock --force)" : "") }
    }

    /// Where each bundle key stands in the file (1-based line), for findings about an entry.
    public var keyLines: [String: Int] = [:]

    public static func load(path: String) throws -> LockFile {
        let data: Data
        do {
            data = try FileReader.read(path, limit: FileReader.Limit.dataFile)
        } catch {
            throw LockError(file: path, message: "\(error)")
        }
        let json: JSONValue, lines: [String: Int]
        do {
            (json, lines) = try JSONValue.parseLocated(data, json5: false)
        } catch {
            throw LockError(file: path, message: "\(error)", repairable: true)
        }
        return try parse(json, file: path, keyLines: lines)
    }

    /// A bundle key as written (`./M.xcdatamodeld`, `M.xcdatamodeld/`, `a/../M.xcdatamodeld`) in the one form
    /// `lock` writes: relative to the lock file's folder, no `.` or `..` parts, no trailing slash.
    public static func normalizedKey(_ key: String) -> String {
        let absolute = PathTools.absolute(key, relativeTo: "/")
        return key.hasPrefix("/") ? absolute : String(absolute.dropFirst())
    }

    static func parse(_ json: JSONValue, file: String, keyLines: [String: Int] = [:]) throws -> LockFile {
        func fail(_ message: String) -> LockError { LockError(file: file, message: message, repairable: true) }
        guard json.objectValue != nil else { throw fail("the lock file must be a JSON object") }
        guard let format = json["format"]?.intValue else { throw fail("format: missing") }
        guard format == formatVersion else {
            throw LockError(file: file, message: "format: \(format) is not a lock format this modellint reads (it reads \(formatVersion)); upgrade modellint")
        }
        guard let bundles = json["bundles"] else { throw fail("bundles: missing; a lock file records its bundles there") }
        guard let entries = bundles.objectValue else { throw fail("bundles: must be an object keyed by bundle path") }
        var lock = LockFile()
        for (written, value) in entries {
            let bundle = normalizedKey(written)
            guard lock.bundles[bundle] == nil else { throw fail("bundles.\(written): a second entry for the bundle \(bundle)") }
            guard let versions = value["versions"]?.objectValue else { throw fail("bundles.\(written).versions: missing") }
            var digests: [String: VersionDigest] = [:]
            for (version, entry) in versions {
                guard let schema = entry["schema"]?.stringValue, let content = entry["content"]?.stringValue else {
                    throw fail("bundles.\(written).versions.\(version): schema and content digests are required")
                }
                var entities: [String: String] = [:]
                for (entity, digest) in entry["entities"]?.objectValue ?? [] { entities[entity] = digest.stringValue ?? "" }
                digests[version] = VersionDigest(schema: schema, content: content, entities: entities)
            }
            lock.bundles[bundle] = digests
            lock.keyLines[bundle] = keyLines[JSONParser.keyPath(["bundles", written])]
        }
        return lock
    }

    /// JSON with every key sorted, so the file diffs cleanly in review.
    public func serialized() -> String {
        let bundlesJSON: [(String, JSONValue)] = bundles.keys.sorted().map { bundle in
            let versions = bundles[bundle]!
            let versionsJSON: [(String, JSONValue)] = versions.keys.sorted(by: VersionOrder.precedes).map { name in
                let digest = versions[name]!
                return (name, .object([
                    ("content", .string(digest.content)),
                    ("entities", .object(digest.entities.keys.sorted().map { ($0, .string(digest.entities[$0]!)) })),
                    ("schema", .string(digest.schema)),
                ]))
            }
            return (bundle, .object([("versions", .object(versionsJSON))]))
        }
        return JSONValue.object([
            ("format", .number(Double(LockFile.formatVersion))),
            ("generator", .string("modellint \(ModelLintVersion.current)")),
            ("bundles", .object(bundlesJSON)),
        ]).serialized() + "\n"
    }

    /// Replaced atomically (`FileWriter`): a reader never sees half a lock file.
    public func write(to path: String) throws {
        try FileWriter.write(Data(serialized().utf8), to: path)
    }
}
