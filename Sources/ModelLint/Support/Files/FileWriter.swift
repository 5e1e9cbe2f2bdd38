import Foundation
#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// How modellint writes a file it was asked to write (`--output`, `--write-baseline`, `lock`, `new-version`'s
/// pointer): a regular file is replaced atomically (a temporary file beside it, then a rename), keeping its
/// permissions and owner; a symlink stays a symlink and its target is updated; anything that is not a regular
/// file (a device such as `/dev/null`, a FIFO, `/dev/stdout`, a process substitution) is written in place,
/// never renamed over. Run as root in a CI container, `--output /dev/null` must not replace the machine's
/// `/dev/null` with a regular file.
package enum FileWriter {
    package struct WriteError: Error, CustomStringConvertible, Equatable {
        package var path: String
        package var reason: String
        package var description: String { "cannot write \(path): \(reason)" }

        package init(path: String, reason: String) {
            self.path = path
            self.reason = reason
        }
    }

    /// Where a write may land. The path's folders and any symlink at the path are resolved, and the file
    /// written must be inside `boundary` (a real path): a repository can commit `modellint.sarif -> /etc/x` or a
    /// `reports -> /` folder, and modellint writes into the repository, never out of it through them.
    package struct Confinement: Sendable {
        package var boundary: String
        /// Whether a symlink at the path is followed (its target updated, the link kept) or replaced by the file.
        package var followsLinks: Bool

        /// For a path the user named, or one found in the tree: inside the working directory when the path is
        /// (lexically) below it; else inside the folder the path names.
        package static func named(_ path: String, workingDirectory: String, followsLinks: Bool = true) -> Confinement {
            let absolute = PathTools.absolute(path, relativeTo: workingDirectory)
            let base =
                PathTools.relative(absolute, to: PathTools.standardize(workingDirectory)) != nil
                ? workingDirectory : (absolute as NSString).deletingLastPathComponent
            return Confinement(
                boundary: PathTools.realPath(base) ?? PathTools.standardize(base), followsLinks: followsLinks)
        }

        package init(boundary: String, followsLinks: Bool) {
            self.boundary = boundary
            self.followsLinks = followsLinks
        }

        /// The real folder `file` lands in, when it is inside the boundary (nil when it is not, or is missing).
        func folder(of file: String) -> (real: String?, inside: Bool) {
            let parent = (file as NSString).deletingLastPathComponent
            guard let real = PathTools.realPath(parent.isEmpty ? "." : parent) else { return (nil, false) }
            return (real, PathTools.isInside(real, boundary))
        }
    }

    /// Writes `path` with what `body` writes into the sink.
    package static func write(to path: String, confinedTo confinement: Confinement, _ body: (OutputSink) throws -> Void)
        throws
    {
        let target = try resolve(path, confinement)
        switch target {
        case .inPlace(let resolved): try writeInPlace(resolved, display: path, body)
        case .replace(let resolved, let existing): try replace(resolved, existing: existing, display: path, body)
        }
    }

    package static func write(_ data: Data, to path: String, confinedTo confinement: Confinement) throws {
        try write(to: path, confinedTo: confinement) { $0.write(bytes: data) }
    }

    /// Removes the file at `path` without following a symlink there (the link goes, never its target) and never
    /// a folder (a stamp path that is a folder is an error, not a recursive delete).
    package static func remove(_ path: String, confinedTo confinement: Confinement) throws {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        guard info.st_mode & S_IFMT != S_IFDIR else {
            throw WriteError(path: path, reason: "it is a directory; modellint removes only files")
        }
        guard confinement.folder(of: path).inside else {
            throw WriteError(path: path, reason: "it is outside \(confinement.boundary)")
        }
        guard unlink(path) == 0 else { throw WriteError(path: path, reason: String(cString: strerror(errno))) }
    }

    private enum Target {
        /// Not a regular file: opened and written, never replaced.
        case inPlace(String)
        /// A regular file (or none yet) at this path, with the existing file's mode and owner.
        case replace(String, existing: stat?)
    }

    private static func resolve(_ path: String, _ confinement: Confinement) throws -> Target {
        // Paths into the device and process trees (/dev/stdout, /dev/fd/63 from a process substitution,
        // /proc/self/fd/1), named as such, stand for an open file: always written in place.
        if path.hasPrefix("/dev/") || path.hasPrefix("/proc/") { return .inPlace(path) }
        // The file lands in the real folder of the last path resolved: it must be inside the boundary.
        func confined(_ target: Target, at file: String) throws -> Target {
            let (real, inside) = confinement.folder(of: file)
            guard let real else {
                throw WriteError(
                    path: path, reason: "its folder \((file as NSString).deletingLastPathComponent) does not exist")
            }
            guard inside else {
                throw WriteError(
                    path: path,
                    reason: file == path
                        ? "its folder resolves to \(real), outside \(confinement.boundary); modellint writes only inside it"
                        : "it is a symbolic link to \(file), outside \(confinement.boundary); modellint does not write through it"
                )
            }
            return target
        }
        var current = path
        for _ in 0..<40 {
            var info = stat()
            if lstat(current, &info) != 0 {
                guard errno == ENOENT else { throw WriteError(path: path, reason: String(cString: strerror(errno))) }
                return try confined(.replace(current, existing: nil), at: current)
            }
            switch info.st_mode & S_IFMT {
            case S_IFLNK:
                // Replaced: the rename puts the file where the link was.
                guard confinement.followsLinks else {
                    return try confined(.replace(current, existing: nil), at: current)
                }
                // Followed one step, so the link itself stays and its target is what is replaced.
                var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
                let n = readlink(current, &buffer, buffer.count - 1)
                guard n >= 0 else { throw WriteError(path: path, reason: String(cString: strerror(errno))) }
                let destination = String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
                current =
                    destination.hasPrefix("/")
                    ? destination : (current as NSString).deletingLastPathComponent + "/" + destination
            case S_IFREG:
                return try confined(.replace(current, existing: info), at: current)
            case S_IFDIR:
                throw WriteError(path: path, reason: "it is a directory")
            default:
                return try confined(.inPlace(current), at: current)
            }
        }
        throw WriteError(path: path, reason: "too many levels of symbolic links")
    }

    private static func writeInPlace(_ path: String, display: String, _ body: (OutputSink) throws -> Void) throws {
        let fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC | O_TRUNC)
        guard fd >= 0 else { throw WriteError(path: display, reason: String(cString: strerror(errno))) }
        defer { _ = close(fd) }
        let sink = OutputSink { try writeAll($0, to: fd) }
        try body(sink)
        sink.flush()
        if let error = sink.error { throw WriteError(path: display, reason: "\(error)") }
    }

    private static func replace(_ path: String, existing: stat?, display: String, _ body: (OutputSink) throws -> Void)
        throws
    {
        let directory = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        // This process's temporaries by name (its id in it), registered before one exists: an interruption
        // removes them, whenever it comes.
        let folder = directory.isEmpty ? "." : directory
        let prefix = ".\(name).modellint-\(getpid())-"
        Interruption.register(folder: folder, prefix: prefix)
        defer { Interruption.unregister(folder: folder, prefix: prefix) }
        var template = Array((folder + "/" + prefix + "XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw WriteError(path: display, reason: String(cString: strerror(errno))) }
        // The name mkstemp filled in, up to its terminating NUL.
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var committed = false
        defer {
            if !committed { unlink(temporary) }
        }
        do {
            let sink = OutputSink { try writeAll($0, to: fd) }
            try body(sink)
            sink.flush()
            if let error = sink.error { throw error }
            // The file keeps what it had: its mode (0600 stays 0600) and, where we may, its owner.
            let mode = existing.map { $0.st_mode & 0o7777 } ?? (0o666 & ~currentUmask())
            guard fchmod(fd, mode) == 0 else {
                throw WriteError(path: display, reason: String(cString: strerror(errno)))
            }
            if let existing, existing.st_uid != geteuid() || existing.st_gid != getegid() {
                _ = fchown(fd, existing.st_uid, existing.st_gid)
            }
            guard fsync(fd) == 0 else { throw WriteError(path: display, reason: String(cString: strerror(errno))) }
            _ = close(fd)
            guard rename(temporary, path) == 0 else {
                throw WriteError(path: display, reason: String(cString: strerror(errno)))
            }
            committed = true
        } catch let error as WriteError {
            _ = close(fd)
            throw error
        } catch {
            _ = close(fd)
            throw WriteError(path: display, reason: "\(error)")
        }
    }

    private static func currentUmask() -> mode_t {
        let mask = umask(0o022)
        umask(mask)
        return mask
    }

    /// Every byte to `fd`, retrying short writes and interruptions.
    package static func writeAll(_ bytes: [UInt8], to fd: Int32) throws {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Foundation.write(fd, $0.baseAddress! + offset, bytes.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                throw POSIXFailure(code: errno)
            }
            offset += n
        }
    }

    /// An advisory lock held while `body` reads and rewrites `path`: concurrent modellint runs updating one
    /// file (ten `lock` runs in parallel jobs) take turns instead of each writing what it read before the others
    /// wrote. The lock is on the folder holding the file (its inode stays the same while the file itself is
    /// replaced by renames); where the file system cannot lock a folder, `body` runs unlocked.
    package static func withLock<T>(on path: String, _ body: () throws -> T) rethrows -> T {
        let directory = (path as NSString).deletingLastPathComponent
        let fd = open(directory.isEmpty ? "." : directory, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return try body() }
        defer { _ = close(fd) }
        while flock(fd, LOCK_EX) != 0 {
            guard errno == EINTR else { return try body() }
        }
        defer { _ = flock(fd, LOCK_UN) }
        removeStaleTemporaries(of: path)
        return try body()
    }

    /// `<pid>-XXXXXX` (or the six characters alone, as earlier builds named them).
    static func isTemporarySuffix(_ suffix: Substring) -> Bool {
        if suffix.utf8.count == 6 { return true }
        guard let dash = suffix.firstIndex(of: "-") else { return false }
        return !suffix[..<dash].isEmpty && suffix[..<dash].allSatisfy(\.isASCII)
            && suffix[..<dash].allSatisfy(\.isNumber)
            && suffix[suffix.index(after: dash)...].utf8.count == 6
    }

    /// Temporary files a killed writer of `path` left (`.NAME.modellint-XXXXXX`). Only called with the folder's
    /// lock held: no other modellint is writing there, so none of them is in use.
    package static func removeStaleTemporaries(of path: String) {
        let directory = (path as NSString).deletingLastPathComponent
        let prefix = "." + (path as NSString).lastPathComponent + ".modellint-"
        for name in (try? FileManager.default.contentsOfDirectory(atPath: directory.isEmpty ? "." : directory)) ?? []
        where name.hasPrefix(prefix) && Self.isTemporarySuffix(name.dropFirst(prefix.count)) {
            unlink((directory.isEmpty ? "." : directory) + "/" + name)
        }
    }
}

/// A failed system call: its errno, described as the C library describes it.
package struct POSIXFailure: Error, CustomStringConvertible, Equatable {
    package var code: Int32
    package var description: String { String(cString: strerror(code)) }
    package var isBrokenPipe: Bool { code == EPIPE }

    package init(code: Int32) {
        self.code = code
    }
}
