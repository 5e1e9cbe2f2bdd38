import Foundation
#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Reads the files a repository holds, which anyone can commit: only regular files (a FIFO would block
/// forever, `/dev/zero` never ends), and never more than a cap per kind of file. Opening never blocks (a FIFO
/// is opened non-blocking, then refused), and the size is checked before anything is read.
package enum FileReader {
    /// Caps by kind of file, documented in the README ("Limits").
    package enum Limit {
        /// A version's `contents`: the largest real one (WooCommerce) is 130 KB; 64 MB is far beyond any model.
        package static let contents = 64 << 20
        /// `.xccurrentversion`, `.modellint.json`: a few hundred bytes in practice.
        package static let smallFile = 1 << 20
        /// `modellint.lock`, baselines, `project.pbxproj`.
        package static let dataFile = 256 << 20
        /// Baselines are streamed (a million findings is some 500 MB), never held whole.
        package static let baseline = 1 << 30
        /// Mapping models over `MappingModelReader.embeddedModelsLimit` are only scanned until both model paths are
        /// found; they embed both models (up to 8 MB seen).
        package static let mappingModel = 1 << 30
    }

    package enum ReadError: Error, Equatable, CustomStringConvertible {
        case missing
        case notRegular(String)
        case tooLarge(size: Int, limit: Int)
        case failed(String)
        /// A symlink (or a path through one) to a file outside the tree it was found in.
        case outside(resolved: String, root: String)

        /// The system refused the read (`EACCES`, `EPERM`): the file may be fine, and a sandbox keeping it away
        /// (Xcode's, for a Run Script phase's undeclared inputs) is the usual cause.
        package static let permissionDenied = ReadError.failed("permission denied")

        package var description: String {
            switch self {
            case .missing: return "no such file"
            case .notRegular(let kind): return "it is \(kind), not a regular file"
            case .tooLarge(let size, let limit):
                return
                    "it is \(FileReader.describeSize(size)), over modellint's limit of \(FileReader.describeSize(limit)) for this kind of file"
            case .failed(let reason): return "it cannot be read (\(reason))"
            case .outside(let resolved, let root):
                return "it resolves to \(resolved), outside \(root); modellint does not read it"
            }
        }
    }

    package static func describeSize(_ bytes: Int) -> String {
        if bytes >= 1 << 20 && bytes % (1 << 20) == 0 { return "\(bytes >> 20) MB" }
        if bytes >= 1 << 20 { return "\(bytes) bytes (\(bytes >> 20) MB)" }
        return "\(bytes) bytes"
    }

    /// What is at `path` (following symlinks): nil when nothing is.
    package static func kind(at path: String) -> FileKind? {
        InputLog.consulted(path)
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return FileKind(mode: info.st_mode)
    }

    package typealias Status = (info: stat, modified: timespec, changed: timespec)

    /// `stat` of `path` (following symlinks) with its modification and change times, named alike on every platform;
    /// nil with `errno` set when nothing is there. Not logged: callers that identify a file log it themselves.
    package static func status(_ path: String) -> Status? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return times(info)
    }

    /// `lstat` of `path` (a symlink itself, not what it points to), as `status` gives it. Not logged.
    package static func linkStatus(_ path: String) -> Status? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return times(info)
    }

    private static func times(_ info: stat) -> Status {
        #if canImport(Darwin)
            return (info, info.st_mtimespec, info.st_ctimespec)
        #else
            return (info, info.st_mtim, info.st_ctim)
        #endif
    }

    /// Whether anything is at `path`, a symlink included (a dangling one too): what must not be overwritten.
    package static func entryExists(at path: String) -> Bool {
        InputLog.consulted(path)
        var info = stat()
        return lstat(path, &info) == 0
    }

    package enum FileKind: Equatable {
        case regular
        case directory
        case other(String)

        package init(mode: mode_t) {
            switch mode & S_IFMT {
            case S_IFREG: self = .regular
            case S_IFDIR: self = .directory
            case S_IFIFO: self = .other("a FIFO")
            case S_IFCHR: self = .other("a character device")
            case S_IFBLK: self = .other("a block device")
            case S_IFSOCK: self = .other("a socket")
            default: self = .other("a special file")
            }
        }
    }

    /// Refuses a file found inside `root` (a repository, a bundle) that resolves outside it through a committed
    /// symlink: `ReadError.outside`.
    package static func requireInside(_ path: String, root: String) throws {
        guard let resolved = PathTools.realPath(path) else { return }
        let realRoot = PathTools.realPath(root) ?? root
        guard PathTools.isInside(resolved, realRoot) else {
            throw ReadError.outside(resolved: resolved, root: realRoot)
        }
    }

    package static func isSymbolicLink(_ path: String) -> Bool {
        InputLog.consulted(path)
        return linkStatus(path).map(isSymbolicLink) ?? false
    }

    package static func isSymbolicLink(_ status: Status) -> Bool { status.info.st_mode & S_IFMT == S_IFLNK }

    /// The whole file, when it is a regular file of at most `limit` bytes.
    package static func read(_ path: String, limit: Int) throws -> Data {
        let handle = try open(path)
        defer { _ = close(handle.fd) }
        guard handle.size <= limit else { throw ReadError.tooLarge(size: handle.size, limit: limit) }
        // Uninitialised: zero-filling a megabytes-long file only to overwrite it is wasted work.
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: max(handle.size, 1), alignment: 16)
        let total: Int
        do {
            total = try readAll(handle, into: buffer)
        } catch {
            buffer.deallocate()
            throw error
        }
        return Data(bytesNoCopy: buffer, count: total, deallocator: .custom { pointer, _ in pointer.deallocate() })
    }

    /// `read` into an array: for a reader that scans bytes, the file is not read into `Data` and then copied (a
    /// copy is as many fresh pages again: a mapping model is megabytes).
    package static func readBytes(_ path: String, limit: Int) throws -> [UInt8] {
        let handle = try open(path)
        defer { _ = close(handle.fd) }
        guard handle.size <= limit else { throw ReadError.tooLarge(size: handle.size, limit: limit) }
        return try [UInt8](unsafeUninitializedCapacity: handle.size) { buffer, count in
            count = 0
            guard let base = buffer.baseAddress else { return }
            count = try readAll(handle, into: UnsafeMutableRawPointer(base))
        }
    }

    /// Reads up to `handle.size` bytes into `buffer`; fewer when the file shrank while being read.
    private static func readAll(_ handle: (fd: Int32, size: Int), into buffer: UnsafeMutableRawPointer) throws -> Int {
        var total = 0
        while total < handle.size {
            let n = Glibc_read(handle.fd, buffer + total, handle.size - total)
            if n < 0 {
                if errno == EINTR { continue }
                throw ReadError.failed(String(cString: strerror(errno)))
            }
            if n == 0 { break }  // shrank while being read
            total += n
        }
        return total
    }

    /// An open descriptor of a regular file of at most `limit` bytes, for a reader that streams it.
    package static func openChecked(_ path: String, limit: Int) throws -> (fd: Int32, size: Int) {
        let handle = try open(path)
        guard handle.size <= limit else {
            _ = close(handle.fd)
            throw ReadError.tooLarge(size: handle.size, limit: limit)
        }
        return handle
    }

    /// Reads a regular file in chunks, at most `limit` bytes in all, until `body` returns false.
    package static func scan(_ path: String, limit: Int, chunkSize: Int = 256 * 1024, _ body: ([UInt8]) -> Bool) throws
    {
        let handle = try open(path)
        defer { _ = close(handle.fd) }
        var remaining = limit
        var buffer = [UInt8](repeating: 0, count: chunkSize)
        while remaining > 0 {
            let wanted = min(chunkSize, remaining)
            let n = buffer.withUnsafeMutableBytes { Glibc_read(handle.fd, $0.baseAddress!, wanted) }
            if n < 0 {
                if errno == EINTR { continue }
                throw ReadError.failed(String(cString: strerror(errno)))
            }
            if n == 0 { return }
            remaining -= n
            if !body(Array(buffer[0..<n])) { return }
        }
    }

    private static func open(_ path: String) throws -> (fd: Int32, size: Int) {
        InputLog.consulted(path)
        // Non-blocking, so opening a FIFO returns at once instead of waiting for a writer.
        let fd = Glibc_open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        if fd < 0 {
            if errno == ENOENT || errno == ENOTDIR { throw ReadError.missing }
            if errno == EACCES || errno == EPERM { throw ReadError.permissionDenied }
            if errno == ELOOP { throw ReadError.failed("too many levels of symbolic links") }
            if errno == EISDIR { throw ReadError.notRegular("a directory") }
            throw ReadError.failed(String(cString: strerror(errno)))
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let reason = String(cString: strerror(errno))
            _ = close(fd)
            throw ReadError.failed(reason)
        }
        let kind = FileKind(mode: info.st_mode)
        guard kind == .regular else {
            _ = close(fd)
            switch kind {
            case .directory: throw ReadError.notRegular("a directory")
            case .other(let what): throw ReadError.notRegular(what)
            case .regular: fatalError("unreachable")
            }
        }
        // Back to blocking reads: a regular file never blocks, and EAGAIN would only complicate the loop.
        let flags = fcntl(fd, F_GETFL)
        if flags >= 0 { _ = fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) }
        return (fd, Int(info.st_size))
    }
}

// The C library's names, which `FileReader`'s own `read`/`open` would otherwise shadow.
@inline(__always) private func Glibc_read(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(fd, buffer, count)
}

@inline(__always) private func Glibc_open(_ path: String, _ flags: Int32) -> Int32 {
    open(path, flags)
}
