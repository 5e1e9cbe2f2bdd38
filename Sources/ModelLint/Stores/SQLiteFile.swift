import Foundation
import ModelLintSupport
import ModelLintModel

/// A read-only reader of the SQLite file format (sqlite.org/fileformat2.html), far enough to read a Core Data
/// store's tables: the header, table b-trees (interior and leaf pages), records and overflow pages, with the
/// newest committed frames of a `-wal` file applied on top. It opens the files read-only and never writes,
/// creates `-shm` or `-journal` files, or takes a lock. Every offset, length and page number is checked, page
/// cycles are detected and the work is bounded by the number of pages: a hostile file is an error, never a trap
/// or a hang.
package struct SQLiteFile: Sendable {
    package struct ReadError: Error, Equatable, CustomStringConvertible {
        package var description: String

        package init(description: String) {
            self.description = description
        }
    }

    package enum Value: Equatable, Sendable {
        case null
        case integer(Int64)
        case real(Double)
        case text(String)
        case blob([UInt8])
    }

    /// A table's row: its rowid and its columns in declaration order.
    package struct Row: Equatable, Sendable {
        package var rowid: Int64
        package var values: [Value]

        package init(rowid: Int64, values: [Value]) {
            self.rowid = rowid
            self.values = values
        }
    }

    package let pageSize: Int
    package let usableSize: Int
    package let pageCount: Int
    package let main: [UInt8]
    /// Page number -> the newest committed WAL frame's page data.
    package let walPages: [Int: ArraySlice<UInt8>]
    package let encoding: UInt32
    /// Whether a `-wal` file was found and had committed frames.
    package let usedWAL: Bool

    /// A store is at most this large for modellint's purposes: metadata sits in the first pages.
    package static let sizeLimit = 1 << 30

    package init(path: String) throws {
        let data: Data
        do { data = try FileReader.read(path, limit: Self.sizeLimit) } catch {
            throw ReadError(description: "\(error)")
        }
        var wal: Data?
        if FileReader.kind(at: path + "-wal") != nil {
            do { wal = try FileReader.read(path + "-wal", limit: Self.sizeLimit) } catch {
                throw ReadError(description: "\(path)-wal: \(error)")
            }
        }
        try self.init(bytes: [UInt8](data), wal: wal.map { [UInt8]($0) })
    }

    package init(bytes: [UInt8], wal: [UInt8]? = nil) throws {
        func fail(_ what: String) -> ReadError { ReadError(description: "not a SQLite database: \(what)") }
        guard bytes.count >= 100, bytes.starts(with: Array("SQLite format 3\u{0}".utf8)) else {
            throw fail("no SQLite header")
        }
        let rawPageSize = Int(bytes[16]) << 8 | Int(bytes[17])
        let pageSize = rawPageSize == 1 ? 65536 : rawPageSize
        guard pageSize >= 512, pageSize <= 65536, pageSize & (pageSize - 1) == 0 else {
            throw fail("page size \(rawPageSize)")
        }
        let reserved = Int(bytes[20])
        guard pageSize - reserved >= 480 else { throw fail("reserved space \(reserved)") }
        self.pageSize = pageSize
        usableSize = pageSize - reserved
        main = bytes
        var pages = bytes.count / pageSize
        var applied: [Int: ArraySlice<UInt8>] = [:]
        if let wal, let (frames, committedSize) = Self.committedFrames(wal, pageSize: pageSize) {
            applied = frames
            pages = max(committedSize, 0)
        }
        walPages = applied
        usedWAL = !applied.isEmpty
        pageCount = pages
        // The text encoding is a field of page 1's header: from the WAL when it holds a newer page 1, as SQLite
        // reads it.
        let header = applied[1] ?? bytes[0..<min(bytes.count, pageSize)]
        encoding = header.count >= 60 ? Self.be32(header, header.startIndex + 56) : 0
        guard pageCount >= 1 else { throw fail("no pages") }
    }

    /// The newest committed frame of every page in a WAL file, and the database size (in pages) at the last
    /// commit; nil when the WAL is empty, for another page size, or has no valid committed frame. Frames count
    /// only while their salts match the header and their cumulative checksums hold, as SQLite reads them.
    package static func committedFrames(_ wal: [UInt8], pageSize: Int) -> ([Int: ArraySlice<UInt8>], Int)? {
        guard wal.count >= 32 else { return nil }
        func be32(_ at: Int) -> UInt32 {
            UInt32(wal[at]) << 24 | UInt32(wal[at + 1]) << 16 | UInt32(wal[at + 2]) << 8 | UInt32(wal[at + 3])
        }
        let magic = be32(0)
        guard magic == 0x377F_0682 || magic == 0x377F_0683, Int(be32(8)) == pageSize else { return nil }
        let bigEndian = magic == 0x377F_0683
        func word(_ at: Int) -> UInt32 {
            bigEndian
                ? be32(at)
                : UInt32(wal[at]) | UInt32(wal[at + 1]) << 8 | UInt32(wal[at + 2]) << 16 | UInt32(wal[at + 3]) << 24
        }
        func checksum(_ start: Int, _ count: Int, _ s: (UInt32, UInt32)) -> (UInt32, UInt32) {
            var (s0, s1) = s
            var i = start
            while i + 8 <= start + count {
                s0 = s0 &+ word(i) &+ s1
                s1 = s1 &+ word(i + 4) &+ s0
                i += 8
            }
            return (s0, s1)
        }
        var running = checksum(0, 24, (0, 0))
        guard running == (be32(24), be32(28)) else { return nil }
        let salt = (be32(16), be32(20))
        var pending: [Int: ArraySlice<UInt8>] = [:]
        var committed: [Int: ArraySlice<UInt8>] = [:]
        var size: Int?
        var offset = 32
        while offset + 24 + pageSize <= wal.count {
            guard (be32(offset + 8), be32(offset + 12)) == salt else { break }
            running = checksum(offset, 8, running)
            running = checksum(offset + 24, pageSize, running)
            guard running == (be32(offset + 16), be32(offset + 20)) else { break }
            let page = Int(be32(offset))
            let commit = Int(be32(offset + 4))
            guard page >= 1 else { break }
            pending[page] = wal[(offset + 24)..<(offset + 24 + pageSize)]
            if commit > 0 {
                committed.merge(pending) { $1 }
                pending = [:]
                size = commit
            }
            offset += 24 + pageSize
        }
        guard let size, !committed.isEmpty else { return nil }
        return (committed, size)
    }

    /// Page `number` (1-based), from the WAL when it has a newer copy.
    package func page(_ number: Int) throws -> ArraySlice<UInt8> {
        guard number >= 1, number <= pageCount else {
            throw ReadError(description: "page \(number) is outside the database (\(pageCount) pages)")
        }
        if let fromWAL = walPages[number] { return fromWAL }
        let start = (number - 1) * pageSize
        guard start + pageSize <= main.count else {
            throw ReadError(description: "page \(number) is past the end of the file")
        }
        return main[start..<(start + pageSize)]
    }

    /// Every row of the table b-tree rooted at `root`, in rowid order.
    package func rows(ofTreeAt root: Int) throws -> [Row] {
        // Each byte of a table's payloads is stored once in the file, so a table never holds more than the file
        // does; cells whose pointers share one cell or one overflow chain would otherwise be read once each.
        let stored = main.count + walPages.count * pageSize
        var budget = WorkBudget(limit: stored + 65536, what: "bytes of rows (the database holds \(stored) bytes)")
        var rows: [Row] = []
        var visited = Set<Int>()
        var stack = [root]
        // Depth-first, right to left pushed so rows come out in order.
        while let number = stack.popLast() {
            guard visited.insert(number).inserted else {
                throw ReadError(description: "page \(number) is reached twice: the b-tree has a cycle")
            }
            let page = try self.page(number)
            let base = page.startIndex + (number == 1 ? 100 : 0)
            guard base + 8 <= page.endIndex else { throw ReadError(description: "page \(number) is too short") }
            let kind = page[base]
            let cells = Int(page[base + 3]) << 8 | Int(page[base + 4])
            let headerSize = kind == 0x05 ? 12 : 8
            guard kind == 0x0D || kind == 0x05 else {
                throw ReadError(description: "page \(number) is not a table b-tree page (type \(kind))")
            }
            guard base + headerSize + cells * 2 <= page.endIndex else {
                throw ReadError(description: "page \(number) has more cells than fit")
            }
            func cellOffset(_ i: Int) throws -> Int {
                let at = base + headerSize + i * 2
                let offset = Int(page[at]) << 8 | Int(page[at + 1])
                guard offset >= 8, offset < pageSize else {
                    throw ReadError(description: "page \(number): cell \(i) outside the page")
                }
                return page.startIndex + offset
            }
            if kind == 0x05 {
                var children: [Int] = []
                for i in 0..<cells {
                    let at = try cellOffset(i)
                    guard at + 4 <= page.endIndex else {
                        throw ReadError(description: "page \(number): cell \(i) truncated")
                    }
                    children.append(Int(Self.be32(page, at)))
                }
                children.append(Int(Self.be32(page, base + 8)))
                stack += children.reversed()
                continue
            }
            for i in 0..<cells {
                var at = try cellOffset(i)
                let payloadSize = try Self.varint(page, &at)
                let rowid = try Self.varint(page, &at)
                guard payloadSize >= 0, payloadSize <= Int64(Self.sizeLimit) else {
                    throw ReadError(description: "page \(number): payload size \(payloadSize)")
                }
                do { try budget.spend(Int(payloadSize)) } catch {
                    throw ReadError(description: "table at page \(root): \(error)")
                }
                let payload = try self.payload(of: Int(payloadSize), in: page, at: at, pageNumber: number)
                rows.append(Row(rowid: rowid, values: try record(payload)))
            }
        }
        return rows
    }

    /// A cell's whole payload: its local part, then the overflow chain.
    package func payload(of size: Int, in page: ArraySlice<UInt8>, at start: Int, pageNumber: Int) throws -> [UInt8] {
        let u = usableSize
        let x = u - 35
        var local = size
        if size > x {
            let m = ((u - 12) * 32 / 255) - 23
            let k = m + ((size - m) % (u - 4))
            local = k <= x ? k : m
        }
        guard start + local <= page.endIndex else {
            throw ReadError(description: "page \(pageNumber): a cell runs past the page")
        }
        var bytes = Array(page[start..<(start + local)])
        guard local < size else { return bytes }
        guard start + local + 4 <= page.endIndex else {
            throw ReadError(description: "page \(pageNumber): no overflow pointer")
        }
        var next = Int(Self.be32(page, start + local))
        var seen = Set<Int>()
        while bytes.count < size {
            guard next != 0, seen.insert(next).inserted else {
                throw ReadError(description: "an overflow chain from page \(pageNumber) ends early or loops")
            }
            let overflow = try self.page(next)
            let take = min(u - 4, size - bytes.count)
            bytes += overflow[(overflow.startIndex + 4)..<(overflow.startIndex + 4 + take)]
            next = Int(Self.be32(overflow, overflow.startIndex))
        }
        return bytes
    }

    /// A record: its header of serial types, then the values.
    package func record(_ bytes: [UInt8]) throws -> [Value] {
        let slice = bytes[...]
        var at = 0
        let headerSize = try Self.varint(slice, &at)
        guard headerSize >= 1, headerSize <= Int64(bytes.count) else {
            throw ReadError(description: "a record header of \(headerSize) bytes")
        }
        var types: [Int64] = []
        while at < Int(headerSize) { types.append(try Self.varint(slice, &at)) }
        var body = Int(headerSize)
        func take(_ n: Int) throws -> ArraySlice<UInt8> {
            guard n >= 0, body + n <= bytes.count else {
                throw ReadError(description: "a record value runs past its record")
            }
            defer { body += n }
            return slice[body..<(body + n)]
        }
        func signed(_ b: ArraySlice<UInt8>) -> Int64 {
            var v: Int64 = b.first.map { $0 & 0x80 != 0 ? -1 : 0 } ?? 0
            for byte in b { v = v << 8 | Int64(byte) }
            return v
        }
        return try types.map { type -> Value in
            switch type {
            case 0: return .null
            case 1: return .integer(signed(try take(1)))
            case 2: return .integer(signed(try take(2)))
            case 3: return .integer(signed(try take(3)))
            case 4: return .integer(signed(try take(4)))
            case 5: return .integer(signed(try take(6)))
            case 6: return .integer(signed(try take(8)))
            case 7: return .real(Double(bitPattern: UInt64(bitPattern: signed(try take(8)))))
            case 8: return .integer(0)
            case 9: return .integer(1)
            case 10, 11: throw ReadError(description: "a reserved record type")
            default:
                guard type <= Int64(Self.sizeLimit) * 2 else {
                    throw ReadError(description: "a record value of serial type \(type)")
                }
                let length = Int((type - (type % 2 == 0 ? 12 : 13)) / 2)
                let raw = try take(length)
                if type % 2 == 0 { return .blob(Array(raw)) }
                switch encoding {
                case 2:
                    return .text(
                        String(
                            decoding: stride(from: raw.startIndex, to: raw.endIndex - 1, by: 2).map {
                                UInt16(raw[$0]) | UInt16(raw[$0 + 1]) << 8
                            }, as: UTF16.self))
                case 3:
                    return .text(
                        String(
                            decoding: stride(from: raw.startIndex, to: raw.endIndex - 1, by: 2).map {
                                UInt16(raw[$0]) << 8 | UInt16(raw[$0 + 1])
                            }, as: UTF16.self))
                default: return .text(String(decoding: raw, as: UTF8.self))
                }
            }
        }
    }

    /// A table's rows by name, with its column names from its `CREATE TABLE` statement (sqlite_schema, page 1).
    package func table(named name: String) throws -> (columns: [String], rows: [Row])? {
        for row in try rows(ofTreeAt: 1) {
            guard row.values.count >= 5, row.values[0] == .text("table"), case .text(let tableName) = row.values[1],
                tableName.caseInsensitiveCompare(name) == .orderedSame, case .integer(let root) = row.values[3],
                case .text(let sql) = row.values[4]
            else { continue }
            guard root >= 1, root <= Int64(pageCount) else {
                throw ReadError(description: "table \(name)'s root page \(root) is outside the database")
            }
            return (Self.columns(ofCreateTable: sql), try rows(ofTreeAt: Int(root)))
        }
        return nil
    }

    /// Column names of `CREATE TABLE x (a INTEGER PRIMARY KEY, "b,c" VARCHAR(255), ...)`: the first token of each
    /// top-level comma-separated item, table constraints left out. The text is tokenised as SQLite does: commas
    /// and parentheses inside quoted identifiers (`"…"`, `[…]`, `` `…` ``), string literals and comments are text.
    package static func columns(ofCreateTable sql: String) -> [String] {
        let tokens = SQLTokens(sql)
        guard let open = tokens.firstIndex(where: { $0 == .punctuation("(") }) else { return [] }
        var items: [[SQLTokens.Token]] = [[]]
        var depth = 0
        for token in tokens[(open + 1)...] {
            if token == .punctuation("(") { depth += 1 }
            if token == .punctuation(")") {
                if depth == 0 { break }
                depth -= 1
            }
            if token == .punctuation(","), depth == 0 { items.append([]) } else { items[items.count - 1].append(token) }
        }
        let constraints: Set<String> = ["PRIMARY", "UNIQUE", "CHECK", "FOREIGN", "CONSTRAINT"]
        return items.compactMap { item in
            switch item.first {
            case .word(let word)?: return constraints.contains(word.uppercased()) ? nil : word
            case .quoted(let name)?: return name
            default: return nil
            }
        }
    }

    package static func be32(_ bytes: ArraySlice<UInt8>, _ at: Int) -> UInt32 {
        UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8 | UInt32(bytes[at + 3])
    }

    /// SQLite's big-endian varint: up to 9 bytes, the ninth contributing all 8 bits.
    package static func varint(_ bytes: ArraySlice<UInt8>, _ at: inout Int) throws -> Int64 {
        var value: UInt64 = 0
        for i in 0..<9 {
            guard at < bytes.endIndex else { throw ReadError(description: "a varint runs past its page") }
            let byte = bytes[at]
            at += 1
            if i == 8 { return Int64(bitPattern: value << 8 | UInt64(byte)) }
            value = value << 7 | UInt64(byte & 0x7F)
            if byte & 0x80 == 0 { return Int64(bitPattern: value) }
        }
        return Int64(bitPattern: value)
    }
}
