/// What a run of `fix` changes in one file: replacements of byte ranges of the file as it was read, or the whole
/// file's new bytes (a version restored as it shipped).
package struct FileEdits: Sendable {
    package struct Replacement: Sendable, Equatable {
        package var range: Range<Int>
        package var bytes: [UInt8]

        package init(range: Range<Int>, bytes: [UInt8]) {
            self.range = range
            self.bytes = bytes
        }
    }

    /// As displayed (relative to the working directory, as the report names it).
    package var path: String
    /// The bytes as read; empty for a file that did not exist.
    package var original: [UInt8]
    /// False for a file the repair creates (a bundle without a `.xccurrentversion`).
    package var existed = true
    private var replacements: [Replacement] = []
    private var whole: [UInt8]?

    package init(path: String, original: [UInt8]) {
        self.path = path
        self.original = original
    }

    /// False when it overlaps a replacement already made, or the whole file is replaced: two repairs of one place
    /// are never both applied.
    package mutating func replace(_ range: Range<Int>, with bytes: [UInt8]) -> Bool {
        guard whole == nil, range.upperBound <= original.count,
            !replacements.contains(where: { $0.range.overlaps(range) || $0.range == range })
        else { return false }
        replacements.append(Replacement(range: range, bytes: bytes))
        return true
    }

    /// False when the file already has replacements.
    package mutating func replaceWhole(with bytes: [UInt8]) -> Bool {
        guard replacements.isEmpty, whole == nil else { return false }
        whole = bytes
        return true
    }

    package var result: [UInt8] {
        if let whole { return whole }
        var out: [UInt8] = []
        out.reserveCapacity(original.count)
        var at = 0
        for replacement in replacements.sorted(by: { $0.range.lowerBound < $1.range.lowerBound }) {
            out += original[at..<replacement.range.lowerBound]
            out += replacement.bytes
            at = replacement.range.upperBound
        }
        out += original[at...]
        return out
    }

    package var changes: Bool { result != original }
}
