import Foundation
#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A folder's entries as the file system holds them: names as bytes (`readdir`), so a name that is not valid
/// UTF-8 is seen (and reported) rather than dropped, and two names that differ only in Unicode normalization stay two.
package enum DirectoryListing {
    package struct Entries {
        /// Names that are valid UTF-8, in the order the file system gave them.
        package var names: [String] = []
        /// Names that are not, as bytes.
        package var invalid: [[UInt8]] = []

        package init(names: [String] = [], invalid: [[UInt8]] = []) {
            self.names = names
            self.invalid = invalid
        }
    }

    package static func entries(of path: String) -> Entries {
        var result = Entries()
        _ = forEachName(in: path) { name in
            if name.elementsEqual([0x2E]) || name.elementsEqual([0x2E, 0x2E]) { return false }
            let bytes = Array(name)
            if UTF8Validation.firstInvalidByte(bytes) == nil {
                result.names.append(String(decoding: bytes, as: UTF8.self))
            } else {
                result.invalid.append(bytes)
            }
            return false
        }
        return result
    }

    /// Whether the folder has an entry whose name's bytes `matches` accepts, stopping at the first: the other
    /// names are never copied (a home or temporary folder can hold thousands).
    package static func hasEntry(in path: String, _ matches: (UnsafeBufferPointer<UInt8>) -> Bool) -> Bool {
        forEachName(in: path, matches)
    }

    /// Each entry's name as the file system holds it (`readdir`, `.` and `..` included), until `body` returns
    /// true; whether it did. A folder that cannot be opened has none.
    private static func forEachName(in path: String, _ body: (UnsafeBufferPointer<UInt8>) -> Bool) -> Bool {
        InputLog.listed(path)
        guard let directory = opendir(path) else { return false }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let stop = withUnsafeMutablePointer(to: &entry.pointee.d_name) { name -> Bool in
                let start = UnsafeRawPointer(name)
                return body(
                    UnsafeBufferPointer(
                        start: start.assumingMemoryBound(to: UInt8.self),
                        count: strlen(start.assumingMemoryBound(to: CChar.self))))
            }
            if stop { return true }
        }
        return false
    }

    /// A name that is not UTF-8, shown with its bad bytes as `\x..`.
    package static func display(_ bytes: [UInt8]) -> String {
        var out = ""
        var i = 0
        while i < bytes.count {
            if bytes[i] < 0x80 {
                out += ReportText.escaped(String(UnicodeScalar(bytes[i])))
                i += 1
            } else {
                out += "\\x" + String(bytes[i], radix: 16, uppercase: true)
                i += 1
            }
        }
        return out
    }
}
