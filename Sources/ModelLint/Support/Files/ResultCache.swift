import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// What modellint worked out from a file, kept in the user's cache folder (never the repository) and used again
/// while the file is unchanged, as SwiftLint keeps its results: for the files whose reading costs most (a big
/// `project.pbxproj` takes a pre-commit run's whole budget). Unchanged means the same device, inode, size,
/// modification and change times (`ctime` cannot be set back, so a restored `mtime` is still seen), and the entry
/// was made by this modellint. Entries are untrusted like every file: one that cannot be read as written is
/// ignored and replaced; a file modified in the last two seconds is not stored, so an edit within the clock's
/// resolution is never mistaken for the stored one.
///
/// The folder is this user's alone (made 0700; one owned by another user, or writable by others, is not used), and
/// every entry's name mixes in a secret kept there (`salt`, 0600), so another user can neither predict an entry's
/// name nor plant one; an entry that is not a regular file this user owns is ignored, never opened for writing.
/// A process of the same user can read the salt and write valid entries, as it could replace modellint itself:
/// that is outside what the cache defends.
package struct ResultCache: Sendable {
    /// nil: no cache (`--no-cache`, no folder to keep one in, or one that is not this user's alone).
    package let folder: String?
    /// The per-user secret every entry name is derived with.
    private let salt: String

    /// This modellint: its version and its executable's identity. A rebuilt modellint keeps its version string,
    /// not its readers: an entry another build wrote is never used.
    package static let tool: String = {
        guard let executable = ExecutablePath.current else { return ModelLintVersion.current }
        return ModelLintVersion.current + " " + InputLog.identity(of: executable)
    }()

    package init(folder: String?) {
        guard let folder, let salt = Self.privateSalt(in: folder) else {
            self.folder = nil
            salt = ""
            return
        }
        self.folder = folder
        self.salt = salt
    }

    /// The folder's salt, making the folder (0700) and the salt (0600) when absent; nil when the folder is not a
    /// directory this user owns that no one else may write, or the salt is not a regular file of this user's
    /// holding 64 hexadecimal digits.
    static func privateSalt(in folder: String) -> String? {
        let user = geteuid()
        var info = stat()
        if stat(folder, &info) != 0 {
            guard
                (try? FileManager.default.createDirectory(
                    atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])) != nil,
                stat(folder, &info) == 0
            else { return nil }
        }
        guard info.st_mode & S_IFMT == S_IFDIR, info.st_uid == user, info.st_mode & 0o022 == 0 else { return nil }
        let path = folder + "/salt"
        if let known = readSalt(path) { return known }
        // Written beside, then linked into place: two first runs at once agree on one salt.
        var generator = SystemRandomNumberGenerator()
        let fresh = (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
        let temporary = path + ".\(getpid()).\(UInt32.random(in: 0...UInt32.max, using: &generator))"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return nil }
        let written = (try? FileWriter.writeAll(Array(fresh.utf8), to: fd)) != nil
        _ = close(fd)
        if written { _ = link(temporary, path) }
        _ = unlink(temporary)
        return readSalt(path)
    }

    private static func readSalt(_ path: String) -> String? {
        guard isOwnRegularFile(path), let data = try? FileReader.read(path, limit: 64), data.count == 64 else {
            return nil
        }
        let text = String(decoding: data, as: UTF8.self)
        return text.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }) ? text : nil
    }

    /// Whether `path` itself (not what a link points at) is a regular file this user owns.
    static func isOwnRegularFile(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG && info.st_uid == geteuid()
    }

    /// A check run's entry holds its whole report: 64 MB is some 100,000 findings.
    private static let entryLimit = 64 << 20

    /// `$MODELLINT_CACHE_DIR`, else the platform's cache folder: `~/Library/Caches/modellint` on macOS,
    /// `$XDG_CACHE_HOME/modellint` or `~/.cache/modellint` elsewhere.
    package static func standard(environment: [String: String]) -> ResultCache {
        if let explicit = environment["MODELLINT_CACHE_DIR"], explicit.hasPrefix("/") {
            return ResultCache(folder: PathTools.standardize(explicit))
        }
        #if canImport(Darwin)
            guard let home = environment["HOME"], home.hasPrefix("/") else { return ResultCache(folder: nil) }
            return ResultCache(folder: home + "/Library/Caches/modellint")
        #else
            if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
                return ResultCache(folder: xdg + "/modellint")
            }
            guard let home = environment["HOME"], home.hasPrefix("/") else { return ResultCache(folder: nil) }
            return ResultCache(folder: home + "/.cache/modellint")
        #endif
    }

    /// The file's identity: device, inode, size, modification and change times (nanoseconds).
    package static func identity(of file: String) -> [Double]? {
        InputLog.consulted(file)
        return FileReader.status(file).flatMap(identity)
    }

    /// The identity in a `FileReader.status` (or `linkStatus`) answer; nil for anything but a regular file.
    package static func identity(_ status: FileReader.Status) -> [Double]? {
        let (info, modified, changed) = status
        guard info.st_mode & S_IFMT == S_IFREG else { return nil }
        return [
            Double(info.st_dev), Double(info.st_ino), Double(info.st_size), Double(modified.tv_sec),
            Double(modified.tv_nsec), Double(changed.tv_sec), Double(changed.tv_nsec),
        ]
    }

    private func entryPath(for file: String, kind: String, extension: String = "json") -> String? {
        folder.map {
            "\($0)/\(kind)/\(SHA256.hex(salt + "\u{1F}" + file + "\u{1F}" + Self.tool)).\(`extension`)"
        }
    }

    /// An entry this modellint wrote, read back whole; nil when there is none or it is not as written.
    private func entry(at path: String) -> JSONValue? {
        guard Self.isOwnRegularFile(path), let data = try? FileReader.read(path, limit: Self.entryLimit),
            let json = try? JSONValue.parse(data, json5: false),
            json["format"]?.intValue == 1, json["tool"]?.stringValue == Self.tool
        else { return nil }
        return json
    }

    /// Writes an entry (the format, this modellint's version, then `fields`).
    private func write(_ fields: [(String, JSONValue)], to path: String) {
        let json = JSONValue.object([("format", .number(1)), ("tool", .string(Self.tool))] + fields)
        write(Data(json.serialized(indent: nil).utf8), to: path)
    }

    /// Nothing when the folder cannot be written: a cache never fails a run.
    private func write(_ data: Data, to path: String) {
        guard let folder else { return }
        let directory = (path as NSString).deletingLastPathComponent
        guard
            (try? FileManager.default.createDirectory(
                atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])) != nil
        else { return }
        // Only a file of this user's is replaced: anything else at the name (a FIFO, a device, another user's file)
        // would be opened for writing in place, and could wait forever.
        var info = stat()
        if lstat(path, &info) == 0, !Self.isOwnRegularFile(path) { return }
        Self.sweepOnce(directory)
        try? FileWriter.write(data, to: path, confinedTo: .named(path, workingDirectory: folder, followsLinks: false))
    }

    private static let swept = Locked(Set<String>())

    /// Removes, once per run and folder, the temporaries writers that were killed (SIGKILL, a crash: no handler
    /// runs) left: `.NAME.modellint-<pid>-XXXXXX` whose process is gone, and any (earlier builds' names carry no
    /// process id) not modified for an hour, which no write takes. Other runs write here at the same time without a
    /// lock, so a temporary whose process lives is never touched.
    package static func sweepOnce(_ directory: String) {
        guard swept.withLock({ $0.insert(directory).inserted }) else { return }
        let now = Date().timeIntervalSince1970
        for name in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] {
            guard name.hasPrefix("."), let marker = name.range(of: ".modellint-", options: .backwards),
                FileWriter.isTemporarySuffix(name[marker.upperBound...])
            else { continue }
            let path = directory + "/" + name
            guard isOwnRegularFile(path), let status = FileReader.status(path) else { continue }
            let suffix = name[marker.upperBound...]
            let pid = suffix.firstIndex(of: "-").flatMap { pid_t(suffix[..<$0]) }
            let processGone = pid.map { kill($0, 0) != 0 && errno == ESRCH } ?? false
            if processGone || now - Double(status.modified.tv_sec) > 3600 { unlink(path) }
        }
    }

    /// What was stored under `key` by this modellint, for a caller that checks what it covers itself (the
    /// identities of many files in one entry); nil when there is none or it cannot be read as written.
    package func value(forKey key: String, kind: String) -> JSONValue? {
        guard let path = entryPath(for: key, kind: kind), let json = entry(at: path), json["key"]?.stringValue == key
        else { return nil }
        return json["value"]
    }

    /// Stores `value` under `key` (see `value(forKey:kind:)`).
    package func store(_ value: JSONValue, forKey key: String, kind: String) {
        guard let path = entryPath(for: key, kind: kind) else { return }
        write([("key", .string(key)), ("value", value)], to: path)
    }

    /// The records stored under `key` by this modellint, one per line, for an entry of many small records (one
    /// per file of a tree) that a JSON document would cost more to read than the files' own checks: a first line
    /// `{"format":2,"key":…,"tool":…}`, then the records. nil when there is none or it is not as written (well-formed
    /// UTF-8 throughout, so a record's text can be decoded without repair).
    package func records(forKey key: String, kind: String) -> [ArraySlice<UInt8>]? {
        guard let path = entryPath(for: key, kind: kind, extension: "records"), Self.isOwnRegularFile(path),
            let bytes = (try? FileReader.read(path, limit: Self.entryLimit)).map({ [UInt8]($0) }),
            UTF8Validation.firstInvalidByte(bytes) == nil, bytes.last == 0x0A
        else { return nil }
        var lines = ByteSearch.pieces(of: bytes.dropLast(), separatedBy: 0x0A)
        guard let first = lines.first,
            let header = try? JSONValue.parse(Data(first), maxDepth: 2, json5: false),
            header["format"]?.intValue == 2, header["tool"]?.stringValue == Self.tool,
            header["key"]?.stringValue == key
        else { return nil }
        lines.removeFirst()
        return lines
    }

    /// Stores `records` under `key` (see `records(forKey:kind:)`); a record with a line break is left out.
    package func store(records: [String], forKey key: String, kind: String) {
        guard let path = entryPath(for: key, kind: kind, extension: "records") else { return }
        let header = JSONValue.object([
            ("format", .number(2)), ("key", .string(key)), ("tool", .string(Self.tool)),
        ])
        var text = header.serialized(indent: nil) + "\n"
        for record in records where !record.utf8.contains(0x0A) { text += record + "\n" }
        write(Data(text.utf8), to: path)
    }

    /// Whether a file with this identity may be stored: not changed in the last two seconds, so an edit within
    /// the clock's resolution is never mistaken for the stored one.
    package static func isSettled(_ identity: [Double]) -> Bool {
        identity.count > 3 && Date().timeIntervalSince1970 - identity[3] > 2
    }

    /// What was stored for `file` (absolute) when it is unchanged since; nil otherwise.
    package func value(for file: String, kind: String) -> JSONValue? {
        guard let path = entryPath(for: file, kind: kind), let identity = Self.identity(of: file),
            let json = entry(at: path), json["file"]?.stringValue == file,
            json["identity"]?.arrayValue?.compactMap({ if case .number(let n) = $0 { n } else { nil } }) == identity
        else { return nil }
        return json["value"]
    }

    /// Stores `value` for `file` (absolute) as it is now; nothing when there is no cache folder, the file changed
    /// in the last two seconds, or the folder cannot be written (a cache never fails a run).
    package func store(_ value: JSONValue, for file: String, kind: String) {
        guard let path = entryPath(for: file, kind: kind), let identity = Self.identity(of: file),
            Self.isSettled(identity)
        else { return }
        write(
            [("file", .string(file)), ("identity", .array(identity.map { .number($0) })), ("value", value)], to: path)
    }
}
