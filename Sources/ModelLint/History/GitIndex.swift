import Foundation
import ModelLintSupport

/// Git's index file (`.git/index`, gitformat-index), read for one purpose: its stat cache. An entry records the
/// blob id git gave a file and the file's size, times, inode and owner when git last read it. While the file still
/// has all of those, and the entry was not written in the same moment as the file (racily clean), git takes the
/// file to be that blob without reading it, as `git status` does; so does `versionsIdentical`, which otherwise
/// hashes every file. The file is untrusted: whatever this reader does not expect (another signature or version, a
/// split index, an entry that runs past the end) gives no entries, and every file is hashed instead.
package struct GitIndex: Sendable {
    /// What git recorded of one file.
    package struct Entry: Sendable, Equatable {
        package var blobID: String
        package var changed: Stamp
        package var modified: Stamp
        package var device: UInt32
        package var inode: UInt32
        package var mode: UInt32
        package var user: UInt32
        package var group: UInt32
        package var size: UInt32

        package init(
            blobID: String, changed: Stamp, modified: Stamp, device: UInt32, inode: UInt32, mode: UInt32, user: UInt32,
            group: UInt32, size: UInt32
        ) {
            (self.blobID, self.changed, self.modified, self.device, self.inode) = (
                blobID, changed, modified, device, inode
            )
            (self.mode, self.user, self.group, self.size) = (mode, user, group, size)
        }
    }

    /// Seconds and nanoseconds, as the index records them (32 bits each).
    package struct Stamp: Sendable, Equatable, Comparable {
        package var seconds: UInt32
        package var nanoseconds: UInt32

        package init(seconds: UInt32, nanoseconds: UInt32) {
            self.seconds = seconds
            self.nanoseconds = nanoseconds
        }

        package static func < (a: Stamp, b: Stamp) -> Bool {
            (a.seconds, a.nanoseconds) < (b.seconds, b.nanoseconds)
        }
    }

    /// The entries git trusts its stat data for, by path: stage 0, not marked assume-unchanged, skip-worktree or
    /// intent-to-add. A path listed twice is left out. Paths compare byte for byte, as git's do.
    package var entries: [ExactName: Entry]

    /// The index's entries under `prefix` (a path relative to the work tree's top, ending in `/`); nil when the
    /// bytes are not an index this reader knows. `hashLength`: bytes in an object id (20 for SHA-1, 32 for SHA-256).
    package static func parse(_ bytes: [UInt8], under prefix: String, hashLength: Int) -> GitIndex? {
        let prefixBytes = Array(prefix.utf8)
        var entries: [ExactName: Entry] = [:]
        var repeated: Set<ExactName> = []
        let known = bytes.withUnsafeBufferPointer { data in
            walk(data, hashLength: hashLength) { entry, flags, extended, name in
                guard name.starts(with: prefixBytes) else { return }
                let path = ExactName(String(decoding: name, as: UTF8.self))
                // Stage 0, not assume-unchanged (0x8000), skip-worktree or intent-to-add (0x4000, 0x2000 extended);
                // a name that is not UTF-8 is no path this run asks about.
                guard flags & 0x8000 == 0, extended & 0x6000 == 0, (flags >> 12) & 3 == 0,
                    Array(path.string.utf8) == name,
                    entries[path] == nil
                else {
                    repeated.insert(path)
                    return
                }
                func word(_ at: Int) -> UInt32 { GitIndex.word(data, at) }
                entries[path] = Entry(
                    blobID: Hex.encode(Array(data[entry + 40..<entry + 40 + hashLength])),
                    changed: Stamp(seconds: word(entry), nanoseconds: word(entry + 4)),
                    modified: Stamp(seconds: word(entry + 8), nanoseconds: word(entry + 12)),
                    device: word(entry + 16), inode: word(entry + 20), mode: word(entry + 24), user: word(entry + 28),
                    group: word(entry + 32), size: word(entry + 36))
            }
        }
        guard known else { return nil }
        for path in repeated { entries[path] = nil }
        return GitIndex(entries: entries)
    }

    /// What `git ls-files --stage -z --full-name` prints for this index, byte for byte: every entry in the index's
    /// order (skip-worktree, assume-unchanged and intent-to-add ones, and each stage of a conflict), as
    /// `<mode> <object id> <stage>\t<path>\0`; nil when the bytes are not an index this reader knows.
    package static func stageListing(_ bytes: [UInt8], hashLength: Int) -> Data? {
        var listing: [UInt8] = []
        listing.reserveCapacity(bytes.count)
        var modesFit = true
        let known = bytes.withUnsafeBufferPointer { data in
            walk(data, hashLength: hashLength) { entry, flags, _, name in
                // `%06o`: every mode git writes has six octal digits.
                let mode = GitIndex.word(data, entry + 24)
                modesFit = modesFit && mode < 0o1000000
                for shift in stride(from: 15, through: 0, by: -3) { listing.append(0x30 + UInt8((mode >> shift) & 7)) }
                listing.append(0x20)
                Hex.append(data[(entry + 40)..<(entry + 40 + hashLength)], to: &listing)
                listing.append(0x20)
                listing.append(0x30 + UInt8((flags >> 12) & 3))
                listing.append(0x09)
                listing += name
                listing.append(0)
            }
        }
        return known && modesFit ? Data(listing) : nil
    }

    private static func word(_ data: UnsafeBufferPointer<UInt8>, _ at: Int) -> UInt32 {
        UInt32(data[at]) << 24 | UInt32(data[at + 1]) << 16 | UInt32(data[at + 2]) << 8 | UInt32(data[at + 3])
    }

    /// Calls `body` with each entry's offset, flags, extended flags and name, in the index's order; false when the
    /// bytes are not an index this reader knows: another signature or version, an entry whose name is not the
    /// length its flags give or that runs past the end, an extension git requires a reader to understand (a
    /// lowercase signature: `link`, a split index whose entries are mostly in another file; `sdir`, a sparse
    /// index's folders), or anything between the extensions and the trailing checksum.
    private static func walk(
        _ data: UnsafeBufferPointer<UInt8>, hashLength: Int, _ body: (Int, UInt16, UInt16, [UInt8]) -> Void
    ) -> Bool {
        guard hashLength == 20 || hashLength == 32 else { return false }
        func word(_ at: Int) -> UInt32 { GitIndex.word(data, at) }
        func half(_ at: Int) -> UInt16 { UInt16(data[at]) << 8 | UInt16(data[at + 1]) }
        // The trailing checksum is not part of the entries or extensions.
        let end = data.count - hashLength
        guard end >= 12, Array(data[0..<4]) == Array("DIRC".utf8) else { return false }
        let version = word(4)
        guard (2...4).contains(version) else { return false }
        let count = Int(word(8))
        let fixed = 40 + hashLength + 2
        var offset = 12
        var name: [UInt8] = []
        for _ in 0..<count {
            let entry = offset
            guard entry <= end - fixed else { return false }
            let flags = half(entry + 40 + hashLength)
            var header = fixed
            var extended: UInt16 = 0
            if flags & 0x4000 != 0 {
                guard version >= 3, entry + fixed + 2 <= end else { return false }
                extended = half(entry + fixed)
                header += 2
            }
            var cursor = entry + header
            if version == 4 {
                // The length of the previous name's tail to drop (git's varint), then this name's rest.
                var drop = 0
                var byte: UInt8
                repeat {
                    guard cursor < end, drop < 1 << 24 else { return false }
                    byte = data[cursor]
                    cursor += 1
                    drop = drop << 7 | Int(byte & 0x7F)
                    if byte & 0x80 != 0 { drop += 1 }
                } while byte & 0x80 != 0
                guard drop <= name.count else { return false }
                name.removeLast(drop)
            } else {
                name.removeAll(keepingCapacity: true)
            }
            let start = cursor
            while cursor < end, data[cursor] != 0 { cursor += 1 }
            guard cursor < end else { return false }
            name += data[start..<cursor]
            let length = Int(flags & 0x0FFF)
            guard length == 0x0FFF ? name.count >= 0x0FFF : name.count == length else { return false }
            if version < 4 {
                // Padded with 1 to 8 NULs to a multiple of 8 bytes.
                offset = entry + ((header + name.count + 8) & ~7)
                guard offset <= end else { return false }
            } else {
                offset = cursor + 1
            }
            body(entry, flags, extended, name)
        }
        while offset < end {
            guard offset + 8 <= end, !(0x61...0x7A).contains(data[offset]) else { return false }
            let size = Int(word(offset + 4))
            guard size <= end - offset - 8 else { return false }
            offset += 8 + size
        }
        return true
    }
}

extension GitIndex {
    /// The index file git uses for the repository whose git folder is `gitDirectory`: its own, unless
    /// `GIT_INDEX_FILE` names another (nil: then git is asked, and no index file is read here).
    static func file(gitDirectory: String) -> String? {
        ProcessEnvironment.value("GIT_INDEX_FILE") == nil ? gitDirectory + "/index" : nil
    }

    /// An index over 64 MB is not read: a repository that large hashes a bundle's files, or lists its index with
    /// git, faster than this reads it.
    static let sizeLimit = 64 << 20

    /// The index of the repository whose git folder is `gitDirectory`, with its entries under `prefix`; nil when
    /// git uses another (`file`), or it cannot be read, is over `sizeLimit`, or is no index this reader knows.
    /// `modified`: the index file's modification time, which tells a racily clean entry.
    package static func read(gitDirectory: String, under prefix: String, hashLength: Int) -> (
        index: GitIndex, modified: Stamp
    )? {
        guard let path = file(gitDirectory: gitDirectory), let (_, modified, _) = FileReader.status(path),
            let data = try? FileReader.read(path, limit: sizeLimit),
            let index = parse([UInt8](data), under: prefix, hashLength: hashLength)
        else { return nil }
        return (index, Stamp(modified))
    }
}

extension GitIndex.Stamp {
    init(_ time: timespec) {
        self.init(
            seconds: UInt32(truncatingIfNeeded: time.tv_sec), nanoseconds: UInt32(truncatingIfNeeded: time.tv_nsec))
    }
}

extension GitIndex.Entry {
    /// Whether the file whose `stat` this is can be taken for the entry's blob without reading it: every stat field
    /// git records is the file's (size, both times to the nanosecond, inode, device, owner, regular file and its
    /// executable bit), and the entry was recorded before the index was written (`indexModified`), so a change
    /// made in the same moment as git read the file cannot hide behind equal times. Stricter than git, which
    /// ignores some of these by configuration; a file this refuses is hashed.
    package func describes(
        _ info: stat, modified: timespec, changed: timespec, indexModified: GitIndex.Stamp
    ) -> Bool {
        let executable = info.st_mode & 0o100 != 0
        return size != 0 && size == UInt32(truncatingIfNeeded: info.st_size)
            && self.modified == GitIndex.Stamp(modified) && self.changed == GitIndex.Stamp(changed)
            && self.modified < indexModified
            && inode == UInt32(truncatingIfNeeded: info.st_ino) && device == UInt32(truncatingIfNeeded: info.st_dev)
            && user == UInt32(truncatingIfNeeded: info.st_uid) && group == UInt32(truncatingIfNeeded: info.st_gid)
            && info.st_mode & S_IFMT == S_IFREG && mode == (executable ? 0o100755 : 0o100644)
    }
}

extension GitIndex {
    /// `git ls-files --stage -z --full-name` for the repository whose git folder is `gitDirectory`, read from its
    /// index file without starting git; nil when git must be asked: `GIT_INDEX_FILE` names another index, the
    /// folder is a linked work tree's (`commondir`), the configuration names an object format (SHA-256), or the
    /// index is not one this reader knows.
    package static func stageListing(gitDirectory: String) -> Data? {
        guard let path = file(gitDirectory: gitDirectory),
            FileReader.kind(at: gitDirectory + "/commondir") == nil,
            let config = try? FileReader.read(gitDirectory + "/config", limit: 1 << 20),
            ByteSearch.firstIndex(
                of: Array("objectformat".utf8), in: config.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }) == nil,
            let index = try? FileReader.read(path, limit: sizeLimit)
        else { return nil }
        return stageListing([UInt8](index), hashLength: 20)
    }
}
