import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Everything a run consulted outside its arguments: each path it read, listed or looked for, and each command it
/// ran with what the command answered. The run cache keeps a report with this log and uses the report again only
/// while every path has the identity it had and every command answers the same, so the log is what makes a kept
/// report sound: the file readers, folder listings and existence checks of `Support` log themselves
/// (`consulted`, `listed`), and so does `Subprocess`.
///
/// A path looked for and absent is logged as absent: a file that appears there is seen. A folder listed is logged
/// itself: an entry created, deleted or renamed in it changes its modification time. Logs are global to the
/// process and every log open at once gets every entry: a log never holds less than its run consulted, at worst
/// more.
package final class InputLog: Sendable {
    /// A command the run started, and digests of what it answered.
    package struct Command: Sendable, Equatable {
        package var executable: String
        package var arguments: [String]
        package var status: Int32
        package var outputDigest: String
        package var errorDigest: String

        package init(executable: String, arguments: [String], status: Int32, output: Data, error: Data) {
            self.executable = executable
            self.arguments = arguments
            self.status = status
            outputDigest = Hex.encode(SHA256.digest(output))
            errorDigest = Hex.encode(SHA256.digest(error))
        }

        package init(executable: String, arguments: [String], status: Int32, outputDigest: String, errorDigest: String)
        {
            self.executable = executable
            self.arguments = arguments
            self.status = status
            self.outputDigest = outputDigest
            self.errorDigest = errorDigest
        }
    }

    /// What a finished log holds.
    package struct Contents: Sendable {
        /// Absolute paths, sorted.
        package var paths: [String]
        /// Each path's identity when the run first consulted it (before reading it): an edit made after the read
        /// changes the identity from this one, so a kept report is never the pre-edit one. For a path not settled
        /// then (modified or changed in the two seconds before, `isSettled`), where an edit within the same
        /// timestamp granule could keep its identity, the digest of what it held too (`contentDigest`); nil when
        /// that could not be taken, and nothing may be kept on it.
        package var identities: [String: Observed] = [:]
        package var commands: [Command]
        /// False when the run did something a log cannot repeat (a command given standard input).
        package var isRepeatable: Bool
    }

    /// A path as the run found it.
    package struct Observed: Sendable, Equatable {
        package var identity: String
        /// Nil when settled; else the content digest, "" when it could not be taken.
        package var digest: String?
    }

    private struct State {
        var paths = Set<String>()
        var identities: [String: Observed] = [:]
        var commands: [Command] = []
        var isRepeatable = true
    }

    private let state = Locked(State())
    /// Paths under this folder are not logged (the cache's own entries, which the run itself rewrites).
    private let excluded: String?

    private static let active = Locked([InputLog]())

    private init(excluding folder: String?) { excluded = folder.map { $0.hasSuffix("/") ? $0 : $0 + "/" } }

    /// Starts logging what this process consults, until `finish`.
    package static func start(excluding folder: String?) -> InputLog {
        let log = InputLog(excluding: folder)
        active.withLock { $0.append(log) }
        return log
    }

    /// Stops logging; what was logged.
    package func finish() -> Contents {
        Self.active.withLock { logs in logs.removeAll { $0 === self } }
        return state.withLock {
            Contents(
                paths: $0.paths.sorted(), identities: $0.identities, commands: $0.commands,
                isRepeatable: $0.isRepeatable)
        }
    }

    /// A file read, or a path looked for whether anything is there or not: a file that appears, goes or changes
    /// there changes what `identity(of:)` says of the path.
    package static func consulted(_ path: String) { insert(path) }

    /// A folder whose entries were read.
    package static func listed(_ folder: String) { insert(folder) }

    /// A path into every open log (both kinds are kept alike: `identity(of:)` tells a changed file or folder).
    private static func insert(_ path: String) {
        guard let logs = openLogs() else { return }
        let absolute = absolutePath(path)
        // The identity before the read that follows: taken once, at the first consult.
        var taken: Observed?
        for log in logs where !log.isExcluded(absolute) {
            let first = log.state.withLock { $0.paths.insert(absolute).inserted }
            guard first else { continue }
            if taken == nil {
                let identity = Self.identity(of: absolute)
                taken = Observed(
                    identity: identity, digest: isSettled(identity) ? nil : contentDigest(of: absolute) ?? "")
            }
            log.state.withLock { $0.identities[absolute] = taken }
        }
    }

    /// A command run and what it answered (digests are made only while a log is open).
    package static func ran(
        executable: String, arguments: [String], status: Int32, output: Data?, error: Data?, repeatable: Bool
    ) {
        guard let logs = openLogs() else { return }
        let command = Command(
            executable: executable, arguments: arguments, status: status, output: output ?? Data(),
            error: error ?? Data())
        for log in logs {
            log.state.withLock {
                if repeatable { $0.commands.append(command) } else { $0.isRepeatable = false }
            }
        }
    }

    private static func openLogs() -> [InputLog]? {
        let logs = active.withLock { $0 }
        return logs.isEmpty ? nil : logs
    }

    private func isExcluded(_ path: String) -> Bool {
        guard let excluded else { return false }
        return path.hasPrefix(excluded) || path + "/" == excluded
    }

    private static func absolutePath(_ path: String) -> String {
        if path.hasPrefix("/") { return path }
        return PathTools.absolute(path, relativeTo: FileManager.default.currentDirectoryPath)
    }

    /// What is at `path` now, following symlinks, as one comparable string: device, inode, kind and permissions,
    /// size, modification and change times (nanoseconds); `-errno` when nothing is (or it cannot be reached).
    /// A folder's times change when an entry is created, deleted or renamed in it; `ctime` cannot be set back.
    package static func identity(of path: String) -> String {
        guard let (info, modified, changed) = FileReader.status(path) else { return "-\(errno)" }
        return
            "\(info.st_dev):\(info.st_ino):\(info.st_mode):\(info.st_size):\(modified.tv_sec).\(modified.tv_nsec):\(changed.tv_sec).\(changed.tv_nsec)"
    }

    /// What a path holds, as a digest: a file's bytes (up to 64 MB; nil over that or unreadable), a folder's
    /// entry names, "absent" for nothing.
    package static func contentDigest(of path: String) -> String? {
        switch FileReader.kind(at: path) {
        case nil: return "absent"
        case .directory?:
            let entries = DirectoryListing.entries(of: path)
            let names =
                entries.names.sorted().joined(separator: "\u{0}") + "\u{1}"
                + entries.invalid.map { Hex.encode($0) }.sorted().joined(separator: "\u{0}")
            return "d" + Hex.encode(SHA256.digest(Array(names.utf8)))
        case .regular?:
            guard let bytes = try? FileReader.readBytes(path, limit: 64 << 20) else { return nil }
            return "f" + Hex.encode(SHA256.digest(bytes))
        default: return nil
        }
    }

    /// Whether an identity is old enough to be trusted at `now` (the moment the file is read): modified and
    /// changed more than two seconds before, so an edit made after the read, even within the same timestamp
    /// granule of a file system that keeps whole seconds, gets another time than the one logged (git's "racily
    /// clean" rule). The change time counts as well: a modification time can be set back, a change time cannot.
    /// Absent paths are settled.
    package static func isSettled(_ identity: String, now: Double = Date().timeIntervalSince1970) -> Bool {
        let fields = identity.split(separator: ":")
        guard fields.count == 6 else { return true }
        let times = [fields[4], fields[5]].map { $0.split(separator: ".").first.flatMap { Double($0) } }
        guard let modified = times[0], let changed = times[1] else { return false }
        return now - (max(modified, changed) + 1) > 2
    }
}
