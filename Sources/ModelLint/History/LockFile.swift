import Foundation
import ModelLintSupport
import ModelLintModel

/// `modellint.lock`: the shipped versions of each bundle and their digests (cli.md "Lock file").
package struct LockFile: Equatable, Sendable {
    package static let fileName = "modellint.lock"
    /// The format written; format 1 files are still read.
    package static let formatVersion = 2
    /// The format of the file as read (1 or 2); `lock` upgrades a format-1 file only after verifying it.
    package var readFormat = LockFile.formatVersion

    /// Bundle path relative to the lock file's folder -> version name -> digests.
    /// Keys by their exact bytes (`ExactName`): two versions whose names differ only in Unicode normalization are two.
    package var bundles: [ExactName: [ExactName: VersionDigest]]

    package init(bundles: [ExactName: [ExactName: VersionDigest]] = [:]) {
        self.bundles = bundles
    }

    package struct LockError: Error, CustomStringConvertible, Equatable {
        package var file: String
        package var message: String
        /// The file is damaged (not a wrongly versioned one): `lock --force` rebuilds it.
        package var repairable = false
        package var description: String {
            "\(file): \(message)" + (repairable ? " (repair it with modellint lock --force)" : "")
        }

        package init(file: String, message: String, repairable: Bool = false) {
            self.file = file
            self.message = message
            self.repairable = repairable
        }
    }

    /// Where each bundle key stands in the file (1-based line), for findings about an entry.
    package var keyLines: [ExactName: Int] = [:]

    package static func load(path: String) throws -> LockFile {
        let data: Data
        do {
            data = try FileReader.read(path, limit: FileReader.Limit.dataFile)
        } catch {
            throw LockError(file: path, message: "\(error)")
        }
        let json: JSONValue
        let lines: [String: Int]
        do {
            (json, lines) = try JSONValue.parseLocated(data, json5: false)
        } catch {
            throw LockError(file: path, message: "\(error)", repairable: true)
        }
        var lock = try parse(json, file: path, keyLines: lines)
        lock.relativizeKeys(to: (PathTools.standardize(path) as NSString).deletingLastPathComponent)
        return lock
    }

    /// Absolute keys of bundles inside the lock file's folder become the relative keys `lock` writes, so they
    /// match their bundle; an absolute key outside it matches no bundle and stays as written (lock-entry-orphaned).
    package mutating func relativizeKeys(to directory: String) {
        for key in bundles.keys where key.string.hasPrefix("/") {
            guard let relative = PathTools.relative(key.string, to: directory), !relative.isEmpty else { continue }
            let normalized = ExactName(Self.normalizedKey(relative))
            guard bundles[normalized] == nil else { continue }
            bundles[normalized] = bundles.removeValue(forKey: key)
            keyLines[normalized] = keyLines.removeValue(forKey: key)
        }
    }

    /// A bundle key as written (`./M.xcdatamodeld`, `M.xcdatamodeld/`, `a/../M.xcdatamodeld`) in the one form
    /// `lock` writes: relative to the lock file's folder, no `.` or `..` parts, no trailing slash.
    /// A SwiftData schema set's key: the file that declares its plan (absolute; recorded relative to the lock file's
    /// folder) and the set's name, `App/Plan.swift#TodoPlan`.
    package static func swiftDataKey(planFile: String, set: String, lockDirectory: String) -> String {
        normalizedKey(PathTools.relative(planFile, to: lockDirectory) ?? planFile) + "#" + set
    }

    package static func normalizedKey(_ key: String) -> String {
        let absolute = PathTools.absolute(key, relativeTo: "/")
        return key.hasPrefix("/") ? absolute : String(absolute.dropFirst())
    }

    package static func parse(_ json: JSONValue, file: String, keyLines: [String: Int] = [:]) throws -> LockFile {
        func fail(_ message: String) -> LockError { LockError(file: file, message: message, repairable: true) }
        guard json.objectValue != nil else { throw fail("the lock file must be a JSON object") }
        guard let format = json["format"]?.intValue else { throw fail("format: missing") }
        guard format == 1 || format == 2 else {
            throw LockError(
                file: file,
                message:
                    "format: \(format) is not a lock format this modellint reads (it reads 1 and 2); upgrade modellint")
        }
        guard let bundles = json["bundles"] else {
            throw fail("bundles: missing; a lock file records its bundles there")
        }
        guard let entries = bundles.objectValue else { throw fail("bundles: must be an object keyed by bundle path") }
        var lock = LockFile()
        lock.readFormat = format
        for (written, value) in entries {
            let bundle = ExactName(normalizedKey(written))
            guard lock.bundles[bundle] == nil else {
                throw fail("bundles.\(written): a second entry for the bundle \(bundle)")
            }
            guard let versions = value["versions"]?.objectValue else {
                throw fail("bundles.\(written).versions: missing")
            }
            var digests: [ExactName: VersionDigest] = [:]
            for (versionName, entry) in versions {
                let version = ExactName(versionName)
                guard digests[version] == nil else {
                    throw fail("bundles.\(written).versions.\(versionName): a second entry for this version")
                }
                let path = "bundles.\(written).versions.\(versionName)"
                func strings(_ key: String) throws -> [String: String] {
                    guard let value = entry[key] else { return [:] }
                    guard let pairs = value.objectValue else { throw fail("\(path).\(key): must be an object") }
                    return try Dictionary(
                        pairs.map { name, digest in
                            guard let text = digest.stringValue else {
                                throw fail("\(path).\(key).\(name): must be a string")
                            }
                            return (name, text)
                        }, uniquingKeysWith: { first, _ in first })
                }
                guard let content = entry["content"]?.stringValue else {
                    throw fail("\(path): the content digest is required")
                }
                if format == 1 {
                    guard let schema = entry["schema"]?.stringValue else {
                        throw fail("\(path): schema and content digests are required")
                    }
                    digests[version] = VersionDigest(
                        entityHashes: nil, checksum: nil, legacySchema: schema, content: content,
                        entityContent: try strings("entities"))
                } else {
                    guard entry["entities"] != nil, let checksum = entry["checksum"]?.stringValue else {
                        throw fail("\(path): entities (Core Data's entity hashes), checksum and content are required")
                    }
                    digests[version] = VersionDigest(
                        entityHashes: try strings("entities"), checksum: checksum, legacySchema: nil,
                        content: content, entityContent: try strings("entityContent"))
                }
            }
            lock.bundles[bundle] = digests
            lock.keyLines[bundle] = keyLines[JSONParser.keyPath(["bundles", written])]
        }
        return lock
    }

    /// Format 2 JSON with every key sorted, so the file diffs cleanly in review. Every record must be a format-2
    /// one (`lock` re-records format-1 versions only after verifying them).
    package func serialized() -> String {
        func object(_ values: [String: String]) -> JSONValue {
            .object(values.keys.sorted().map { ($0, .string(values[$0]!)) })
        }
        let bundlesJSON: [(String, JSONValue)] = bundles.keys.sorted {
            $0.string.utf8.lexicographicallyPrecedes($1.string.utf8)
        }.map { bundle in
            let versions = bundles[bundle]!
            let versionsJSON: [(String, JSONValue)] = versions.keys.sorted {
                VersionOrder.precedes($0.string, $1.string)
            }.map { name in
                let digest = versions[name]!
                return (
                    name.string,
                    .object([
                        ("checksum", .string(digest.checksum ?? "")),
                        ("content", .string(digest.content)),
                        ("entities", object(digest.entityHashes ?? [:])),
                        ("entityContent", object(digest.entityContent)),
                    ])
                )
            }
            return (bundle.string, .object([("versions", .object(versionsJSON))]))
        }
        return JSONValue.object([
            ("format", .number(Double(LockFile.formatVersion))),
            ("generator", .string("modellint \(ModelLintVersion.current)")),
            ("bundles", .object(bundlesJSON)),
        ]).serialized() + "\n"
    }

    /// Replaced atomically (`FileWriter`): a reader never sees half a lock file.
    package func write(to path: String, confinedTo confinement: FileWriter.Confinement) throws {
        try FileWriter.write(Data(serialized().utf8), to: path, confinedTo: confinement)
    }
}
