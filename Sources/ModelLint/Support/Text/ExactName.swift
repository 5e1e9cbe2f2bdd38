/// A folder or version name compared by its exact UTF-8 bytes. `String` equality (and hashing) treats
/// canonically equivalent spellings as one (`é` precomposed and decomposed), but a file system that does not
/// normalize names holds both as two folders: a lock file, a pointer or a bundle list keyed by `String` would
/// merge them.
package struct ExactName: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    package let string: String

    package init(_ string: String) { self.string = string }
    package init(stringLiteral value: String) { string = value }

    package var description: String { string }

    // Read as contiguous UTF-8 (a path from Foundation may be a bridged string, read a byte at a time otherwise).
    package static func == (a: ExactName, b: ExactName) -> Bool {
        var a = a.string
        var b = b.string
        return a.withUTF8 { a in b.withUTF8 { b in a.count == b.count && a.elementsEqual(b) } }
    }
    package func hash(into hasher: inout Hasher) {
        var string = string
        string.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}

extension String {
    /// Byte for byte equal: not only canonically equivalent (see `ExactName`).
    package func isExactly(_ other: String) -> Bool { ExactName(self) == ExactName(other) }
}
