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
        public var description: String { "\(file): \(message)" }
    }

    public static func load(path: String) throws -> LockFile {
        let data: Data
        do {
            data = try FileReader.read(path, limit: FileReader.Limit.dataFile)
        } catch {
            throw LockError(file: path, message: "\(error)")
        }
        let json: JSONValue
        do {
            json = try JSONValue.parse(data, json5: false)
        } catch {
            throw LockError(file: path, message: "\(error) (regenerate it with modellint lock --force)")
        }
        return try parse(json, file: path)
    }

    static func parse(_ json: JSONValue, file: String) throws -> LockFile {
        func fail(_ message: String) -> LockError { LockError(file: file, message: message) }
        guard json.objectValue != nil else { throw fail("the lock file must be a JSON object") }
        guard let format = json["format"]?.intValue else { throw fail("format: missing") }
        guard format == formatVersion else {
            throw fail("format: \(format) is not a lock format this modellint reads (it reads \(formatVersion)); upgrade modellint")
        }
        var lock = LockFile()
        for (bundle, value) in json["bundles"]?.objectValue ?? [] {
            guard let versions = value["versions"]?.objectValue else { throw fail("bundles.\(bundle).versions: missing") }
            var digests: [String: VersionDigest] = [:]
            for (version, entry) in versions {
                guard let schema = entry["schema"]?.stringValue, let content = entry["content"]?.stringValue else {
                    throw fail("bundles.\(bundle).versions.\(version): schema and content digests are required")
                }
                var entities: [String: String] = [:]
                for (entity, digest) in entry["entities"]?.objectValue ?? [] { entities[entity] = digest.stringValue ?? "" }
                digests[version] = VersionDigest(schema: schema, content: content, entities: entities)
            }
            lock.bundles[bundle] = digests
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

    /// Temporary file in the same folder, then rename: a reader never sees half a lock file.
    public func write(to path: String) throws {
        try Data(serialized().utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
    }
}
