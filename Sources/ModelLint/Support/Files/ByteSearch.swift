#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Finding bytes in a file's bytes with the C library's `memchr` (vectorized): the scans that run before
/// and beside parsing look only at `<` and newline bytes, a small share of a contents file.
package enum ByteSearch {
    /// The offset of the first `byte` at or after `start`.
    @inlinable package static func firstIndex(of byte: UInt8, in bytes: [UInt8], from start: Int = 0) -> Int? {
        guard start < bytes.count else { return nil }
        return bytes.withUnsafeBufferPointer { buffer -> Int? in
            guard let base = buffer.baseAddress,
                let found = memchr(base + start, Int32(byte), buffer.count - start)
            else { return nil }
            return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
        }
    }

    /// Calls `body` with the offset of every `byte` from `start` on, in order, until it returns false.
    @inlinable package static func forEach(_ byte: UInt8, in bytes: [UInt8], from start: Int = 0, _ body: (Int) -> Bool)
    {
        var offset = start
        while let found = firstIndex(of: byte, in: bytes, from: offset), body(found) {
            offset = found + 1
        }
    }

    /// The offset of every `byte`, in order.
    @inlinable package static func offsets(of byte: UInt8, in bytes: [UInt8]) -> [Int] {
        offsets(of: byte, in: bytes, first: nil, adding: 0)
    }

    /// Where each line of `bytes` starts: 0, and one past every line feed.
    @inlinable package static func lineStarts(in bytes: [UInt8]) -> [Int] {
        offsets(of: 0x0A, in: bytes, first: 0, adding: 1)
    }

    /// Where each line of source code starts, as Swift's and C's lexers end lines: 0, and one past every LF, every
    /// CR not followed by LF, and every CRLF.
    package static func codeLineStarts(in bytes: [UInt8]) -> [Int] {
        var starts = [0]
        guard firstIndex(of: 0x0D, in: bytes) != nil else {
            forEach(0x0A, in: bytes) { i in
                starts.append(i + 1)
                return true
            }
            return starts
        }
        var i = 0
        while i < bytes.count {
            if bytes[i] == 0x0A {
                starts.append(i + 1)
            } else if bytes[i] == 0x0D {
                if i + 1 < bytes.count, bytes[i + 1] == 0x0A { i += 1 }
                starts.append(i + 1)
            }
            i += 1
        }
        return starts
    }

    /// `first` (when given), then the offset of every `byte` plus `adding`, in one array.
    @usableFromInline static func offsets(of byte: UInt8, in bytes: [UInt8], first: Int?, adding: Int) -> [Int] {
        var offsets: [Int] = []
        if let first { offsets.append(first) }
        forEach(byte, in: bytes) { i in
            offsets.append(i + adding)
            return true
        }
        return offsets
    }

    /// `bytes` cut at every `separator`, empty pieces kept (the lines of a file, the fields of a line): the
    /// standard library's `split` calls a closure per byte.
    @inlinable package static func pieces(of bytes: ArraySlice<UInt8>, separatedBy separator: UInt8)
        -> [ArraySlice<UInt8>]
    {
        var pieces: [ArraySlice<UInt8>] = []
        let origin = bytes.startIndex
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            // Counted first: one allocation for the pieces.
            var count = 1
            var next = 0
            while let found = memchr(base + next, Int32(separator), buffer.count - next) {
                count += 1
                next = base.distance(to: found.assumingMemoryBound(to: UInt8.self)) + 1
            }
            pieces.reserveCapacity(count)
            var start = 0
            while let found = memchr(base + start, Int32(separator), buffer.count - start) {
                let end = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                pieces.append(bytes[(origin + start)..<(origin + end)])
                start = end + 1
            }
            pieces.append(bytes[(origin + start)..<(origin + buffer.count)])
        }
        return pieces.isEmpty ? [bytes] : pieces
    }

    /// The bytes of `word` that are zero, each marked by its high bit: the classic has-zero test, exact for the
    /// lowest such byte (the first in memory, little-endian), so the word holds one when the result is not zero.
    /// `word ^ (0x0101_0101_0101_0101 &* b)` finds the bytes equal to `b`, eight bytes a step.
    @inlinable @inline(__always) package static func zeroBytes(_ word: UInt64) -> UInt64 {
        (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080
    }

    /// The offset of the last `byte` at or before `end` (the C library's `memrchr` is a GNU extension), read
    /// backwards eight bytes a step.
    @inlinable package static func lastIndex(of byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, atOrBefore end: Int)
        -> Int?
    {
        guard let base = bytes.baseAddress else { return nil }
        let pattern = 0x0101_0101_0101_0101 &* UInt64(byte)
        var i = min(end, bytes.count - 1)
        while i >= 0 {
            // None of the eight bytes up to `i` is `byte`: skipped at once.
            if i >= 7, zeroBytes(UnsafeRawPointer(base + i - 7).loadUnaligned(as: UInt64.self) ^ pattern) == 0 {
                i -= 8
                continue
            }
            if bytes[i] == byte { return i }
            i -= 1
        }
        return nil
    }

    /// How many of `sorted` (ascending) are at most `offset`: the last of them is at that count minus one.
    @inlinable package static func countAtOrBefore(_ offset: Int, in sorted: [Int]) -> Int {
        var low = 0
        var high = sorted.count
        while low < high {
            let mid = (low + high) / 2
            if sorted[mid] <= offset { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// The offset of the first occurrence of `pattern` (non-empty) in `bytes[start..<end]`.
    @inlinable package static func firstIndex(
        of pattern: [UInt8], in bytes: [UInt8], from start: Int = 0, before end: Int? = nil
    ) -> Int? {
        let end = min(end ?? bytes.count, bytes.count)
        guard start < end else { return nil }
        return bytes.withUnsafeBufferPointer { buffer -> Int? in
            pattern.withUnsafeBufferPointer { needle -> Int? in
                guard let base = buffer.baseAddress, let first = needle.first else { return nil }
                var offset = start
                while offset + needle.count <= end,
                    let found = memchr(base + offset, Int32(first), end - offset - needle.count + 1)
                {
                    let position = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                    if memcmp(base + position, needle.baseAddress!, needle.count) == 0 { return position }
                    offset = position + 1
                }
                return nil
            }
        }
    }
}
