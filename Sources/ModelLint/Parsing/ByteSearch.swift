#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Finding one byte value in a file's bytes with the C library's `memchr` (vectorized): the scans that run
/// before and beside parsing look only at `<` and newline bytes, a small share of a contents file.
enum ByteSearch {
    /// Calls `body` with the offset of every `byte` from `start` on, in order, until it returns false.
    static func forEach(_ byte: UInt8, in bytes: [UInt8], from start: Int = 0, _ body: (Int) -> Bool) {
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            var offset = start
            while offset < buffer.count,
                  let found = memchr(base + offset, Int32(byte), buffer.count - offset) {
                let position = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                guard body(position) else { return }
                offset = position + 1
            }
        }
    }
}
